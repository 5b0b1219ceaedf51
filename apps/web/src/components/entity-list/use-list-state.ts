import type { PageRequest } from '@tc/contract/paging';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

export const PAGE_SIZES = [10, 25, 50, 100];
const SEARCH_DELAY_MS = 300;

/** The page request a list's address asks for (`?page=2&size=25&sort=email.desc&q=`). */
export function listRequest(
  params: URLSearchParams,
  defaultSort: PageRequest['listSort'],
): PageRequest {
  const pageIndex = Math.max(1, Number(params.get('page')) || 1);
  const sizeParam = Number(params.get('size'));
  const pageSize = PAGE_SIZES.includes(sizeParam) ? sizeParam : PAGE_SIZES[0]!;
  const [sortField, sortOrder] = (params.get('sort') ?? '').split('.');
  const listSort: PageRequest['listSort'] = sortField
    ? { field: sortField, direction: sortOrder === 'desc' ? 1 : 0 }
    : defaultSort;
  const search = params.get('q') ?? '';
  return { pageIndex, pageSize, filter: search ? { search } : {}, listSort };
}

/**
 * Page, size, sort and search of a list, kept in the address (`?page=2&size=25&sort=email.desc&q=`)
 * so a reload, a shared link or the back button return to the same place.
 */
export function useListState(defaultSort: PageRequest['listSort']) {
  const [params, setParams] = useSearchParams();
  const parsed = listRequest(params, defaultSort);
  const { pageIndex, pageSize, listSort } = parsed;
  const search = parsed.filter.search ?? '';
  const [searchInput, setSearchInput] = useState(search);

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  // Typing waits for a pause before asking the server; a new search starts on page 1.
  useEffect(() => {
    if (searchInput.trim() === search) return;
    const timer = setTimeout(() => update({ q: searchInput.trim(), page: null }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `update` is rebuilt each render
  }, [searchInput, search]);

  const request = useMemo<PageRequest>(
    () => ({ pageIndex, pageSize, filter: search ? { search } : {}, listSort }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- listSort is derived from these
    [pageIndex, pageSize, search, listSort.field, listSort.direction],
  );

  return {
    request,
    searchInput,
    setSearchInput,
    setPage: (index: number, size: number) =>
      update({
        page: index > 1 ? String(index) : null,
        size: size !== PAGE_SIZES[0] ? String(size) : null,
      }),
    setSort: (sort: PageRequest['listSort'] | null) =>
      update({
        sort: sort ? `${sort.field}.${sort.direction === 1 ? 'desc' : 'asc'}` : null,
        page: null,
      }),
  };
}
