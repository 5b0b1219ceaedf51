import Button from '@mui/material/Button';
import type { Session } from '@tc/contract/security';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/notifications';
import { SectionCard } from '../../../components/section-card';
import { describeDevice, SessionList } from '../../../components/session-list';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/sessions';
import { SectionLoadFailed, SectionLoading } from './load-state';

type Asking = { kind: 'one'; session: Session } | { kind: 'others' } | null;

/**
 * Where the account is signed in. Any session but this one can be signed out, one by one or
 * all at once (after a confirmation): its tokens stop working at once, so a lost phone or a
 * shared computer is shut out without changing the password.
 */
export function SessionsSection() {
  const { t } = useTranslation(['account', 'sessions']);
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [asking, setAsking] = useState<Asking>(null);
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  const close = () => setAsking(null);

  return (
    <SectionCard title={t('sessions.heading')} intro={t('sessions.intro')}>
      {sessions.isPending ? <SectionLoading /> : null}
      {sessions.isError ? (
        <SectionLoadFailed error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : null}
      {sessions.isSuccess ? (
        <>
          <SessionList
            sessions={sessions.data}
            label={t('sessions.label')}
            onSignOut={(session) => setAsking({ kind: 'one', session })}
          />
          <div>
            <Button
              variant="outlined"
              color="error"
              disabled={others.length === 0}
              onClick={() => setAsking({ kind: 'others' })}
            >
              {t('sessions.signOutOthers')}
            </Button>
          </div>
        </>
      ) : null}

      {asking?.kind === 'one' ? (
        <ConfirmDialog
          title={t('sessions.signOutOneTitle')}
          confirmLabel={t('sessions:signOut')}
          destructive
          onConfirm={async () => {
            const { revoked } = await revoke.mutateAsync(asking.session.id);
            notify(t('sessions.signedOut', { count: revoked }));
          }}
          onClose={close}
        >
          {t('sessions.signOutOneText', { device: describeDevice(t, asking.session) })}
        </ConfirmDialog>
      ) : null}
      {asking?.kind === 'others' ? (
        <ConfirmDialog
          title={t('sessions.signOutOthersTitle')}
          confirmLabel={t('sessions.signOutOthersConfirm')}
          destructive
          onConfirm={async () => {
            const { revoked } = await revokeOthers.mutateAsync();
            notify(t('sessions.signedOut', { count: revoked }));
          }}
          onClose={close}
        >
          {t('sessions.signOutOthersText')}
        </ConfirmDialog>
      ) : null}
    </SectionCard>
  );
}
