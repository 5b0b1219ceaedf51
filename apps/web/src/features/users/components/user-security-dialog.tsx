import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Session, UserSecurity } from '@tc/contract/security';
import type { User } from '@tc/contract/users';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/notifications';
import { describeDevice, SessionList } from '../../../components/session-list';
import { describeFailure } from '../../../lib/problem-text';
import {
  useResetUserMfa,
  useRevokeUserSession,
  useRevokeUserSessions,
  useUserSecurity,
} from '../api/user-security';

type Asking = { kind: 'session'; session: Session } | { kind: 'all' } | { kind: 'reset' } | null;

/** Authenticator app, recovery codes and passkeys, as a list of terms and values. */
function SecondFactorSummary({ security }: { security: UserSecurity }) {
  const { t } = useTranslation(['users', 'lists']);
  const { totp, recoveryCodesLeft, passkeys } = security.secondFactors;
  const rows: [string, string][] = [
    [t('security.totp'), totp ? t('lists:yes') : t('lists:no')],
    [t('security.recoveryCodes'), String(recoveryCodesLeft)],
    [
      t('security.passkeys'),
      passkeys.length === 0
        ? t('security.noPasskeys')
        : t('security.passkeyNames', {
            count: passkeys.length,
            names: passkeys.map((passkey) => passkey.name).join(', '),
          }),
    ],
  ];
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'max-content 1fr',
        columnGap: 3,
        rowGap: 1,
        m: 0,
      }}
    >
      {rows.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary">
            {term}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * An administrator's view of one user's sign-in security (users:write): the open sessions,
 * each of which can be signed out, or all at once; the second factors, which a reset removes
 * so a user who lost their phone can enrol again. Every action asks first.
 */
export function UserSecurityDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const { t } = useTranslation(['users', 'sessions', 'lists']);
  const titleId = useId();
  const security = useUserSecurity(user.id);
  const revokeOne = useRevokeUserSession(user.id);
  const revokeAll = useRevokeUserSessions(user.id);
  const reset = useResetUserMfa(user.id);
  const [asking, setAsking] = useState<Asking>(null);
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email;
  const data = security.data;
  const factors = data?.secondFactors;
  const enrolled = factors ? factors.totp || factors.passkeys.length > 0 : false;
  const closeAsking = () => setAsking(null);

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 900 } }}
    >
      <DialogTitle id={titleId}>{t('security.title', { name })}</DialogTitle>
      <DialogContent>
        {security.isPending ? <LinearProgress aria-label={t('security.loading')} /> : null}
        {security.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void security.refetch()}>
                {t('lists:retry')}
              </Button>
            }
          >
            {t('security.loadFailed', { message: describeFailure(t, security.error) })}
          </Alert>
        ) : null}
        {data && factors ? (
          <Stack spacing={3}>
            <Stack component="section" spacing={1.5} aria-labelledby={`${titleId}-factors`}>
              <Typography id={`${titleId}-factors`} component="h3" variant="subtitle1">
                {t('security.factorsHeading')}
              </Typography>
              {factors.required && !enrolled ? (
                <Alert severity="warning">{t('security.requiredMissing')}</Alert>
              ) : null}
              <SecondFactorSummary security={data} />
              <div>
                <Button
                  variant="outlined"
                  color="error"
                  disabled={!enrolled && factors.recoveryCodesLeft === 0}
                  onClick={() => setAsking({ kind: 'reset' })}
                >
                  {t('security.reset')}
                </Button>
              </div>
            </Stack>
            <Stack component="section" spacing={1.5} aria-labelledby={`${titleId}-sessions`}>
              <Typography id={`${titleId}-sessions`} component="h3" variant="subtitle1">
                {t('security.sessionsHeading')}
              </Typography>
              <SessionList
                sessions={data.sessions}
                label={t('security.sessionsOf', { name })}
                onSignOut={(session) => setAsking({ kind: 'session', session })}
              />
              <div>
                <Button
                  variant="outlined"
                  color="error"
                  disabled={data.sessions.length === 0}
                  onClick={() => setAsking({ kind: 'all' })}
                >
                  {t('security.signOutAll')}
                </Button>
              </div>
            </Stack>
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('security.close')}</Button>
      </DialogActions>

      {asking?.kind === 'session' ? (
        <ConfirmDialog
          title={t('security.signOutOneTitle')}
          confirmLabel={t('sessions:signOut')}
          destructive
          onConfirm={async () => {
            const { revoked } = await revokeOne.mutateAsync(asking.session.id);
            notify(t('security.signedOut', { count: revoked }));
          }}
          onClose={closeAsking}
        >
          {t('security.signOutOneText', { name, device: describeDevice(t, asking.session) })}
        </ConfirmDialog>
      ) : null}
      {asking?.kind === 'all' ? (
        <ConfirmDialog
          title={t('security.signOutAllTitle')}
          confirmLabel={t('security.signOutAllConfirm')}
          destructive
          onConfirm={async () => {
            const { revoked } = await revokeAll.mutateAsync();
            notify(t('security.signedOut', { count: revoked }));
          }}
          onClose={closeAsking}
        >
          {t('security.signOutAllText', { name })}
        </ConfirmDialog>
      ) : null}
      {asking?.kind === 'reset' ? (
        <ConfirmDialog
          title={t('security.resetTitle')}
          confirmLabel={t('security.resetConfirm')}
          destructive
          onConfirm={async () => {
            await reset.mutateAsync();
            notify(t('security.resetDone', { name }));
          }}
          onClose={closeAsking}
        >
          {t('security.resetText', { name })}
        </ConfirmDialog>
      ) : null}
    </Dialog>
  );
}
