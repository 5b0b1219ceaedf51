import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef, type GridSortModel } from '@mui/x-data-grid';
import type { Page, PageRequest } from '@tc/contract/paging';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultSorts, pageQueryOptions, type EntityName } from '../../lib/entity-api';
import { useCan } from '../../lib/permissions';
import type { DialogMode } from './crud-dialog';
import { EmptyState } from './empty-state';
import { ExportCsvButton } from './export-csv-button';
import { gridLocaleText, useDisplayedRows } from './grid-locale';
import { GridBusyOverlay, overlaysLetClicksThrough } from './grid-overlays';
import { RowMenu, type RowAction } from './row-menu';
import { PAGE_SIZES, useListState } from './use-list-state';
import { describeFailure } from '../../lib/problem-text';

export interface DialogState<Row> {
  mode: DialogMode;
  row?: Row;
}

/** A read-only list that is not a managed entity: its own page route and first order. */
export interface ListSource<Row> {
  /** The first part of its query keys. */
  name: string;
  defaultSort: PageRequest['listSort'];
  fetchPage: (request: PageRequest, signal?: AbortSignal) => Promise<Page<Row>>;
}

export interface ListPageProps<Row extends { id: string }> {
  entity: EntityName | ListSource<Row>;
  /**
   * The screen's i18n namespace: `title`, `addNew`, `emptyTitle`, `emptyText` (optional),
   * `emptyAction`, `search`.
   */
  ns: string;
  columns: GridColDef<Row>[];
  /**
   * The token permission that allows add, edit and delete ('superAdmin' for tenants). Without
   * it (and a dialog) the list is read-only: no "Add new", no row menu.
   */
  writePermission?: string;
  /** Names a row for screen readers and confirmations. */
  rowName: (row: Row) => string;
  canEdit?: (row: Row) => boolean;
  canDelete?: (row: Row) => boolean;
  /** The screen's own row actions (e.g. a user's sessions), opened by the screen itself. */
  rowActions?: (row: Row) => readonly RowAction[];
  /** The entity's dialog for a mode; `close` ends it. */
  renderDialog?: (state: DialogState<Row>, close: () => void) => ReactNode;
  /** Optional second view (tenants' cards); `menu` renders a row's View/Edit/Delete menu. */
  renderCards?: (rows: Row[], menu: (row: Row) => ReactNode) => ReactNode;
  /** Extra controls beside the search box (e.g. the list/card switch). */
  toolbar?: ReactNode;
  /** The screen's own filters (e.g. a status) sent beside the search; set ones count as one. */
  filter?: Record<string, string | undefined>;
  /**
   * An "Export CSV" button in the toolbar: POSTs the list's current request (filter, search,
   * sort; no paging) to `path` under /api/v1.0 (e.g. `/users/export`) and downloads the answer
   * as `fileName` (or the name the server gives).
   */
  csvExport?: { path: string; fileName: string };
}

function pageQuery<Row>(entity: EntityName | ListSource<Row>, request: PageRequest) {
  if (typeof entity === 'string') return pageQueryOptions<Row>(entity, request);
  return {
    queryKey: [entity.name, 'page', request],
    queryFn: ({ signal }: { signal?: AbortSignal }) => entity.fetchPage(request, signal),
  };
}

const positionField = '__position';

/**
 * The one list screen of the console: server-side paging, sorting
 * and search, the row's position as its number, per-row View/Edit/Delete, "Add new", the
 * empty state and the entity's dialog. An entity supplies columns and a dialog, nothing more.
 */
export function ListPage<Row extends { id: string }>(props: ListPageProps<Row>) {
  const { t, i18n } = useTranslation([props.ns, 'lists']);
  const readOnly = !props.writePermission || !props.renderDialog;
  const canWrite = useCan(props.writePermission ?? '') && !readOnly;
  const list = useListState(
    typeof props.entity === 'string' ? defaultSorts[props.entity] : props.entity.defaultSort,
  );
  const filterKey = JSON.stringify(props.filter ?? {});
  const request = useMemo<PageRequest>(
    () => ({
      ...list.request,
      filter: { ...list.request.filter, ...(JSON.parse(filterKey) as object) },
    }),
    [list.request, filterKey],
  );
  // As usePage (entity-api.ts): the previous page stays shown while the next loads, and the
  // events stream, not a remount, refreshes a page.
  const page = useQuery({
    ...pageQuery<Row>(props.entity, request),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
  const [dialog, setDialog] = useState<DialogState<Row> | null>(null);
  const { pageIndex, pageSize, listSort } = request;

  const rows = useMemo(
    () =>
      (page.data?.data ?? []).map((row, index) => ({
        ...row,
        [positionField]: (pageIndex - 1) * pageSize + index + 1,
      })),
    [page.data, pageIndex, pageSize],
  );

  const menu = (row: Row) => (
    <RowMenu
      name={props.rowName(row)}
      canEdit={canWrite && (props.canEdit?.(row) ?? true)}
      canDelete={canWrite && (props.canDelete?.(row) ?? true)}
      onChoose={(mode) => setDialog({ mode, row })}
      actions={props.rowActions?.(row)}
    />
  );

  const columns = useMemo<GridColDef<Row>[]>(
    () => [
      {
        field: positionField,
        headerName: t('lists:rowNumber'),
        width: 70,
        sortable: false,
        disableColumnMenu: true,
      },
      ...props.columns,
      ...(readOnly
        ? []
        : [
            {
              field: '__actions',
              headerName: t('lists:actions'),
              width: 90,
              sortable: false,
              disableColumnMenu: true,
              align: 'right',
              headerAlign: 'right',
              renderCell: ({ row }) => menu(row),
            } satisfies GridColDef<Row>,
          ]),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- menu depends on these only
    [props.columns, t, canWrite, props.rowActions, readOnly],
  );

  // Stable between renders: the grid treats a new sortModel array as a sort change and goes
  // back to the first page, so a fresh array on every render bounced page 2 back to page 1.
  const sortModel = useMemo<GridSortModel>(
    () => [{ field: listSort.field, sort: listSort.direction === 1 ? 'desc' : 'asc' }],
    [listSort.field, listSort.direction],
  );
  const totalCount = page.data?.totalCount ?? 0;
  const displayedRows = useDisplayedRows(page.data?.totalCountIsEstimate ?? false);
  const gridLocale = useMemo(
    () => ({ ...gridLocaleText(i18n.resolvedLanguage), ...displayedRows.grid }),
    [i18n.resolvedLanguage, displayedRows.grid],
  );
  const searching = Object.values(request.filter).some((value) => value !== undefined);
  const empty = page.isSuccess && totalCount === 0 && !searching && !page.isPlaceholderData;
  const add = canWrite ? () => setDialog({ mode: 'add' }) : undefined;

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Typography component="h1" variant="h4">
          {t('title')}
        </Typography>
        {add ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={add}>
            {t('addNew')}
          </Button>
        ) : null}
      </Stack>

      {page.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void page.refetch()}>
              {t('lists:retry')}
            </Button>
          }
        >
          {t('lists:loadFailed', { message: describeFailure(t, page.error) })}
        </Alert>
      ) : null}

      {empty ? (
        <EmptyState
          title={t('emptyTitle')}
          text={t('emptyText', { defaultValue: '' }) || undefined}
          actionLabel={t('emptyAction')}
          onAdd={add}
        />
      ) : (
        <>
          <Stack direction="row" sx={{ gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <TextField
              type="search"
              size="small"
              label={t('search')}
              value={list.searchInput}
              onChange={(event) => list.setSearchInput(event.target.value)}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
              sx={{ minWidth: 260 }}
            />
            {props.toolbar}
            {props.csvExport ? (
              <ExportCsvButton csvExport={props.csvExport} request={request} />
            ) : null}
          </Stack>
          {props.renderCards ? (
            <>
              {props.renderCards(rows, menu)}
              <TablePagination
                component="div"
                count={totalCount}
                page={pageIndex - 1}
                rowsPerPage={pageSize}
                rowsPerPageOptions={PAGE_SIZES}
                onPageChange={(_event, index) => list.setPage(index + 1, pageSize)}
                onRowsPerPageChange={(event) => list.setPage(1, Number(event.target.value))}
                labelRowsPerPage={t('lists:rowsPerPage')}
                labelDisplayedRows={displayedRows.table}
              />
            </>
          ) : (
            <Box
              aria-busy={page.isFetching}
              sx={{ display: 'flex', flexDirection: 'column', width: '100%' }}
            >
              <DataGrid
                rows={rows}
                columns={columns}
                rowCount={totalCount}
                loading={page.isFetching}
                slots={{ loadingOverlay: GridBusyOverlay }}
                sx={overlaysLetClicksThrough}
                paginationMode="server"
                sortingMode="server"
                filterMode="server"
                disableColumnFilter
                disableRowSelectionOnClick
                sortingOrder={['asc', 'desc']}
                pageSizeOptions={PAGE_SIZES}
                paginationModel={{ page: pageIndex - 1, pageSize }}
                onPaginationModelChange={(model) => list.setPage(model.page + 1, model.pageSize)}
                sortModel={sortModel}
                onSortModelChange={(model) => {
                  const first = model[0];
                  list.setSort(
                    first ? { field: first.field, direction: first.sort === 'desc' ? 1 : 0 } : null,
                  );
                }}
                localeText={gridLocale}
                aria-label={t('title')}
              />
            </Box>
          )}
        </>
      )}
      {dialog && props.renderDialog ? props.renderDialog(dialog, () => setDialog(null)) : null}
    </Stack>
  );
}
