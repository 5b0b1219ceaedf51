import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Webhook, WebhookDelivery, WebhookDeliveryStatus } from '@tc/contract/webhooks';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../components/notifications';
import { useCan } from '../../../lib/permissions';
import { describeFailure } from '../../../lib/problem-text';
import { useDeliveries, useResendDelivery } from '../api/webhooks';

const STATUS_COLORS: Record<WebhookDeliveryStatus, 'default' | 'success' | 'error' | 'warning'> = {
  pending: 'default',
  succeeded: 'success',
  failed: 'error',
  skipped: 'warning',
};

function ResendButton(props: { endpoint: Webhook; delivery: WebhookDelivery }) {
  const { t } = useTranslation(['webhooks', 'lists']);
  const resend = useResendDelivery(props.endpoint.id);
  const run = async () => {
    try {
      await resend.mutateAsync(props.delivery.id);
      notify(t('resent'));
    } catch (error) {
      notify(describeFailure(t, error), 'error');
    }
  };
  return (
    <Button
      size="small"
      onClick={() => void run()}
      disabled={resend.isPending}
      aria-label={t('resendOf', { type: props.delivery.eventType })}
    >
      {t('resend')}
    </Button>
  );
}

/**
 * An endpoint's delivery log: newest first, with status, the receiver's HTTP status, time and
 * attempts, and "Resend" for whoever may change webhooks. Refreshes itself while one is pending.
 */
export function DeliveriesDialog(props: { endpoint: Webhook; onClose: () => void }) {
  const { t, i18n } = useTranslation(['webhooks', 'lists']);
  const titleId = useId();
  const canWrite = useCan('webhooks:write');
  const [page, setPage] = useState({ index: 1, size: 10 });
  const deliveries = useDeliveries(props.endpoint.id, page.index, page.size);
  const time = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', {
    dateStyle: 'medium',
    timeStyle: 'medium',
  });
  const rows = deliveries.data?.data ?? [];
  return (
    <Dialog
      open
      onClose={props.onClose}
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 900 } }}
    >
      <DialogTitle id={titleId}>{t('deliveriesTitle', { url: props.endpoint.url })}</DialogTitle>
      <DialogContent>
        {deliveries.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void deliveries.refetch()}>
                {t('lists:retry')}
              </Button>
            }
          >
            {t('lists:loadFailed', { message: describeFailure(t, deliveries.error) })}
          </Alert>
        ) : deliveries.isPending ? (
          <CircularProgress aria-label={t('loading')} />
        ) : rows.length === 0 ? (
          <Typography>{t('noDeliveries')}</Typography>
        ) : (
          <>
            <Table size="small" aria-label={t('deliveries')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('eventType')}</TableCell>
                  <TableCell>{t('status')}</TableCell>
                  <TableCell>{t('responseStatus')}</TableCell>
                  <TableCell>{t('time')}</TableCell>
                  <TableCell align="right">{t('attempts')}</TableCell>
                  <TableCell>{t('lastError')}</TableCell>
                  {canWrite ? <TableCell aria-label={t('lists:actions')} /> : null}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((delivery) => (
                  <TableRow key={delivery.id}>
                    <TableCell>{delivery.eventType}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        variant="outlined"
                        color={STATUS_COLORS[delivery.status]}
                        label={t(`statuses.${delivery.status}`)}
                      />
                    </TableCell>
                    <TableCell>{delivery.responseStatus ?? '–'}</TableCell>
                    <TableCell>
                      {time.format(new Date(delivery.lastAttemptAt ?? delivery.createdAt))}
                    </TableCell>
                    <TableCell align="right">{delivery.attempts}</TableCell>
                    <TableCell>
                      {delivery.skippedFor
                        ? t('skippedFor', { permission: delivery.skippedFor })
                        : (delivery.lastError ?? '')}
                    </TableCell>
                    {canWrite ? (
                      <TableCell align="right">
                        <ResendButton endpoint={props.endpoint} delivery={delivery} />
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <TablePagination
              component="div"
              count={deliveries.data?.totalCount ?? 0}
              page={page.index - 1}
              rowsPerPage={page.size}
              rowsPerPageOptions={[10, 25, 50]}
              onPageChange={(_event, index) => setPage({ ...page, index: index + 1 })}
              onRowsPerPageChange={(event) =>
                setPage({ index: 1, size: Number(event.target.value) })
              }
              labelRowsPerPage={t('lists:rowsPerPage')}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void deliveries.refetch()}>{t('refresh')}</Button>
        <Button variant="contained" onClick={props.onClose}>
          {t('close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
