import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import {
  MAIL_QUEUE_STATUSES,
  type MailQueueEntry,
  type MailQueueStatus,
} from '@tc/contract/mail-queue';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ListPage } from '../../../components/entity-list/list-page';
import { useDateTime } from '../../../lib/use-date-time';
import { mailQueueSource } from '../api/mail-queue-source';
import { MailStatusChip } from './mail-status-chip';

const STATUS_PARAM = 'status';
const ALL = 'all';

const isStatus = (value: string | null): value is MailQueueStatus =>
  (MAIL_QUEUE_STATUSES as readonly (string | null)[]).includes(value);

/**
 * The status filter, kept in the address beside page, sort and search; a new filter starts on
 * page 1, as a new search does.
 */
function useStatusFilter(): [MailQueueStatus | undefined, (status: string) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(STATUS_PARAM);
  const status = isStatus(value) ? value : undefined;
  const setStatus = (next: string) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (isStatus(next)) updated.set(STATUS_PARAM, next);
        else updated.delete(STATUS_PARAM);
        updated.delete('page');
        return updated;
      },
      { replace: true },
    );
  return [status, setStatus];
}

/**
 * Undelivered mail, for super administrators only: every tenant's messages that are dead,
 * expired or still retrying after a refusal, with the SMTP server's last answer, so that an
 * operator sees when the mail server keeps refusing. Read-only, and never a body.
 */
export default function MailQueuePage() {
  const { t } = useTranslation(['mailQueue', 'lists']);
  const dateTime = useDateTime();
  const [status, setStatus] = useStatusFilter();

  const columns = useMemo<GridColDef<MailQueueEntry>[]>(
    () => [
      { field: 'tenantName', headerName: t('tenant'), flex: 1, minWidth: 130, sortable: false },
      { field: 'toAddress', headerName: t('recipient'), flex: 1.2, minWidth: 180 },
      { field: 'subject', headerName: t('subject'), flex: 1.2, minWidth: 160, sortable: false },
      {
        field: 'status',
        headerName: t('lists:status'),
        width: 130,
        sortable: false,
        renderCell: ({ row }) => <MailStatusChip status={row.status} />,
      },
      { field: 'attempts', headerName: t('attempts'), type: 'number', width: 100 },
      {
        field: 'lastError',
        headerName: t('lastError'),
        flex: 1.5,
        minWidth: 200,
        sortable: false,
        renderCell: ({ row }) =>
          row.lastError ? (
            // The cell shows its start, the tooltip all of it; screen readers read the whole
            // text from the cell (it is cut by CSS only), so the tooltip only describes it.
            <Tooltip title={row.lastError} describeChild>
              <Typography variant="body2" noWrap sx={{ lineHeight: 'inherit' }}>
                {row.lastError}
              </Typography>
            </Tooltip>
          ) : null,
      },
      {
        field: 'createdAt',
        headerName: t('created'),
        width: 170,
        valueGetter: (_value, row) => dateTime(row.createdAt),
      },
      {
        field: 'nextAttemptAt',
        headerName: t('nextAttempt'),
        width: 170,
        sortable: false,
        valueGetter: (_value, row) => (row.status === 'pending' ? dateTime(row.nextAttemptAt) : ''),
      },
    ],
    [t, dateTime],
  );

  const toolbar = (
    <TextField
      select
      size="small"
      label={t('lists:status')}
      value={status ?? ALL}
      onChange={(event) => setStatus(event.target.value)}
      sx={{ minWidth: 160 }}
    >
      <MenuItem value={ALL}>{t('status.all')}</MenuItem>
      {MAIL_QUEUE_STATUSES.map((value) => (
        <MenuItem key={value} value={value}>
          {t(`status.${value}`)}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <ListPage<MailQueueEntry>
      entity={mailQueueSource}
      ns="mailQueue"
      columns={columns}
      rowName={(row) => row.toAddress}
      toolbar={toolbar}
      filter={{ status }}
    />
  );
}
