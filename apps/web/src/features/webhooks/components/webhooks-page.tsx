import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import type { Webhook } from '@tc/contract/webhooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ListPage } from '../../../components/entity-list/list-page';
import { notify } from '../../../components/notifications';
import { useCan } from '../../../lib/permissions';
import { describeFailure } from '../../../lib/problem-text';
import { useRotateWebhookSecret, useSendTestEvent, webhooksSource } from '../api/webhooks';
import { DeliveriesDialog } from './deliveries-dialog';
import { useSubscriptionLabel } from './event-types-field';
import { SecretDialog } from './secret-dialog';
import { WebhookDialog } from './webhook-dialog';

type Opened =
  | { kind: 'deliveries' | 'rotate'; row: Webhook }
  | { kind: 'secret'; row: Webhook; secret: string };

/** Asks before rotating (the current secret stops signing at once), then shows the new one. */
function RotateSecret(props: {
  row: Webhook;
  onClose: () => void;
  onRotated: (s: string) => void;
}) {
  const { t } = useTranslation('webhooks');
  const rotate = useRotateWebhookSecret(props.row.id);
  return (
    <ConfirmDialog
      title={t('rotateTitle')}
      confirmLabel={t('rotateConfirm')}
      destructive
      onConfirm={async () => props.onRotated(await rotate.mutateAsync())}
      onClose={props.onClose}
    >
      {t('rotateQuestion', { url: props.row.url })}
    </ConfirmDialog>
  );
}

/** "Send test event" from a row's menu: queued at once, its delivery seen in the log. */
function useTestSender() {
  const { t } = useTranslation('webhooks');
  const send = useSendTestEvent();
  return (row: Webhook) => {
    send.mutate(row.id, {
      onSuccess: () => notify(t('testSent')),
      onError: (error) => notify(describeFailure(t, error), 'error'),
    });
  };
}

/**
 * Webhooks: where this tenant's changes are sent, signed. Each endpoint's menu opens its
 * delivery log, sends a test event and rotates its signing secret.
 */
export default function WebhooksPage() {
  const { t, i18n } = useTranslation('webhooks');
  const language = i18n.resolvedLanguage ?? 'en';
  const canWrite = useCan('webhooks:write');
  const label = useSubscriptionLabel();
  const [opened, setOpened] = useState<Opened | null>(null);
  const sendTest = useTestSender();
  const columns = useMemo<GridColDef<Webhook>[]>(() => {
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
    return [
      { field: 'url', headerName: t('url'), flex: 1.5, minWidth: 220 },
      {
        field: 'description',
        headerName: t('description'),
        flex: 1,
        minWidth: 140,
        sortable: false,
      },
      {
        field: 'eventTypes',
        headerName: t('eventTypes'),
        flex: 1,
        minWidth: 160,
        sortable: false,
        valueGetter: (_value, row) => row.eventTypes.map(label).join(', '),
      },
      {
        field: 'enabled',
        headerName: t('state'),
        width: 120,
        sortable: false,
        renderCell: ({ row }) => (
          <Chip
            size="small"
            variant="outlined"
            color={row.enabled ? 'success' : 'default'}
            label={t(row.enabled ? 'enabledState' : 'disabledState')}
          />
        ),
      },
      {
        field: 'createdAt',
        headerName: t('created'),
        width: 130,
        valueGetter: (_value, row) => date.format(new Date(row.createdAt)),
      },
    ];
  }, [t, language, label]);
  const rowActions = useMemo(
    () => (row: Webhook) => [
      { label: t('deliveries'), onSelect: () => setOpened({ kind: 'deliveries', row }) },
      ...(canWrite
        ? [
            { label: t('sendTest'), onSelect: () => sendTest(row) },
            { label: t('rotate'), onSelect: () => setOpened({ kind: 'rotate', row }) },
          ]
        : []),
    ],
    [t, canWrite, sendTest],
  );
  const close = () => setOpened(null);
  return (
    <>
      <ListPage<Webhook>
        entity={webhooksSource}
        ns="webhooks"
        columns={columns}
        writePermission="webhooks:write"
        rowName={(row) => row.url}
        rowActions={rowActions}
        renderDialog={(state, closeDialog) => <WebhookDialog {...state} onClose={closeDialog} />}
      />
      {opened?.kind === 'deliveries' ? (
        <DeliveriesDialog endpoint={opened.row} onClose={close} />
      ) : null}
      {opened?.kind === 'rotate' ? (
        <RotateSecret
          row={opened.row}
          onClose={() => setOpened((now) => (now?.kind === 'secret' ? now : null))}
          onRotated={(secret) => setOpened({ kind: 'secret', row: opened.row, secret })}
        />
      ) : null}
      {opened?.kind === 'secret' ? (
        <SecretDialog url={opened.row.url} secret={opened.secret} onClose={close} />
      ) : null}
    </>
  );
}
