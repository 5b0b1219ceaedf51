import Box from '@mui/material/Box';
import type { GridColDef } from '@mui/x-data-grid';
import type { AuditEntry } from '@tc/contract/audit';
import type { Page } from '@tc/contract/paging';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../../components/entity-list/list-page';
import { useDateTime } from '../../../lib/use-date-time';
import { AUDIT_LIST_NAME, auditLogSource } from '../api/audit-log-source';
import { AuditEntryDrawer } from './audit-entry-drawer';
import { AuditFilters } from './audit-filters';
import { useAuditLabels } from './use-audit-labels';
import { requestFilter, useAuditFilters } from './use-audit-filters';

/** The grid row an event happened in (its `data-id`), not the header or the pagination. */
const rowIdOf = (target: EventTarget) =>
  (target as HTMLElement).closest?.('[role="row"][data-id]')?.getAttribute('data-id') ?? null;

/**
 * The tenant's audit log, for holders of audit:read: who changed what and when, filtered by
 * actor, entity, action and date range beside the search, sortable by time, entity and action.
 * A row opens its entry's details (click or Enter) with a diff of before and after; the
 * export takes the filtered list as a CSV file.
 */
export default function AuditLogPage() {
  const { t } = useTranslation(['auditLog', 'lists']);
  const dateTime = useDateTime();
  const labels = useAuditLabels();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useAuditFilters();
  const [opened, setOpened] = useState<AuditEntry | null>(null);

  const columns = useMemo<GridColDef<AuditEntry>[]>(
    () => [
      {
        field: 'createdAt',
        headerName: t('time'),
        width: 180,
        valueGetter: (_value, row) => dateTime(row.createdAt),
      },
      {
        field: 'actorEmail',
        headerName: t('actor'),
        flex: 1.2,
        minWidth: 180,
        sortable: false,
        valueGetter: (_value, row) => labels.actor(row),
      },
      {
        field: 'entity',
        headerName: t('entity'),
        width: 150,
        valueGetter: (_value, row) => labels.entity(row.entity),
      },
      {
        field: 'action',
        headerName: t('action'),
        width: 120,
        valueGetter: (_value, row) => labels.action(row.action),
      },
      { field: 'entityId', headerName: t('entityId'), flex: 1, minWidth: 200, sortable: false },
    ],
    [t, dateTime, labels],
  );

  /** The clicked row's entry, from the pages the list has loaded. */
  const entryWithId = (id: string) => {
    const pages = queryClient.getQueriesData<Page<AuditEntry>>({ queryKey: [AUDIT_LIST_NAME] });
    for (const [, page] of pages) {
      const found = page?.data.find((entry) => entry.id === id);
      if (found) return found;
    }
    return null;
  };
  const open = (target: EventTarget) => {
    const id = rowIdOf(target);
    const entry = id ? entryWithId(id) : null;
    if (entry) setOpened(entry);
  };

  return (
    <Box
      onClick={(event: MouseEvent) => open(event.target)}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Enter' && !event.defaultPrevented) open(event.target);
      }}
      sx={{ '& .MuiDataGrid-row': { cursor: 'pointer' } }}
    >
      <ListPage<AuditEntry>
        entity={auditLogSource}
        ns="auditLog"
        columns={columns}
        rowName={(row) => `${labels.action(row.action)} ${labels.entity(row.entity)}`}
        toolbar={<AuditFilters values={filters} onChange={setFilters} />}
        filter={requestFilter(filters)}
        csvExport={{ path: '/audit/export', fileName: 'audit-log.csv' }}
      />
      <AuditEntryDrawer entry={opened} onClose={() => setOpened(null)} />
    </Box>
  );
}
