import { describe, expect, it } from 'vitest';
import type { UserPageRequest } from '@tc/contract/users';
import { searchPattern } from '../../http/paging';
import {
  firstSearchRead,
  nextSearchRead,
  planUserPage,
  splitWindow,
  surelyOverCap,
  type SearchSample,
} from './page-plan';

const request = (overrides: Partial<UserPageRequest> = {}): UserPageRequest => ({
  pageIndex: 1,
  pageSize: 10,
  filter: {},
  listSort: { field: 'email', direction: 0 },
  ...overrides,
});

describe('splitWindow', () => {
  it('reads each stretch from its nearer end, and a page across a boundary as two reads', () => {
    expect(splitWindow([100], 0, 10)).toEqual([
      { index: 0, offset: 0, limit: 10, reversed: false },
    ]);
    expect(splitWindow([100], 80, 10)).toEqual([
      { index: 0, offset: 10, limit: 10, reversed: true },
    ]);
    expect(splitWindow([5, 0, 20], 0, 10)).toEqual([
      { index: 0, offset: 0, limit: 5, reversed: false },
      { index: 2, offset: 0, limit: 5, reversed: false },
    ]);
    expect(splitWindow([5, 20], 30, 10)).toEqual([]);
  });
});

describe('planUserPage', () => {
  it('counts the total and walks descending pages through the stretches backwards', () => {
    const stretches = [
      { bucket: 'a', n: 30 },
      { bucket: 'b', n: 30 },
    ];
    const plan = planUserPage(
      request({ pageIndex: 3, listSort: { field: 'email', direction: 1 } }),
      stretches,
    );
    expect(plan.total).toBe(60);
    // Descending, rows 20–29 are the last ten of the 'b' bucket: read from its start, ascending.
    expect(plan.runs).toEqual([{ bucket: 'b', offset: 0, limit: 10, reversed: true }]);
  });
});

describe('searches', () => {
  it('match the start for one or two characters, anywhere for more, wildcards as text', () => {
    expect(searchPattern('an')).toBe('an%');
    expect(searchPattern('ann')).toBe('%ann%');
    expect(searchPattern('5%')).toBe('5\\%%');
  });

  const sample = (overrides: Partial<SearchSample>): SearchSample => ({
    size: 1000,
    search: 0,
    kept: 0,
    candidates: 1_000_000,
    tenantRows: 1_000_000,
    ...overrides,
  });
  const search = (text: string, field: UserPageRequest['listSort']['field'] = 'email') =>
    request({ filter: { search: text }, listSort: { field, direction: 0 } });

  it('walk dense matches, look rare ones up in the trigram indexes', () => {
    expect(firstSearchRead(search('ann'), sample({ search: 400, kept: 400 }))).toBe('walk');
    expect(firstSearchRead(search('ann'), sample({ search: 3, kept: 3 }))).toBe('bitmap');
    expect(firstSearchRead(search('ann'), sample({ search: 0, kept: 0 }))).toBe('bitmap');
  });

  it('walk when the filter keeps few users or the fragment has no letter or digit', () => {
    expect(firstSearchRead(search('ann'), sample({ search: 3, candidates: 900 }))).toBe('walk');
    expect(firstSearchRead(search('.-'), sample({ search: 3, kept: 3 }))).toBe('walk');
  });

  it('sorted by role, find the matches through the indexes; past the cap, walk the page', () => {
    const dense = sample({ search: 400, kept: 400 });
    expect(firstSearchRead(search('ann', 'role'), dense)).toBe('bitmap');
    expect(nextSearchRead(search('ann'), dense)).toBe('walk');
  });

  it('calls a search over the cap only when the sample leaves no reasonable doubt', () => {
    // 1,000 sampled of 1,000,000: 2.5 % matched is surely over 10,000; 1.4 % (14,000) is not sure.
    expect(surelyOverCap(sample({ search: 25, kept: 25 }))).toBe(true);
    expect(surelyOverCap(sample({ search: 14, kept: 14 }))).toBe(false);
    // What passed the filter counts, not what matched the search alone.
    expect(surelyOverCap(sample({ search: 500, kept: 5 }))).toBe(false);
    // 100,000 users: a share of 10 % is no proof, 20 % is.
    const smaller = { candidates: 100_000, tenantRows: 100_000 };
    expect(surelyOverCap(sample({ search: 100, kept: 100, ...smaller }))).toBe(false);
    expect(surelyOverCap(sample({ search: 200, kept: 200, ...smaller }))).toBe(true);
    expect(surelyOverCap(sample({ size: 0, tenantRows: 0, candidates: 0 }))).toBe(false);
  });
});
