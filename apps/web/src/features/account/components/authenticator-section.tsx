import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SecondFactors, TotpSetup } from '@tc/contract/security';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/notifications';
import { SectionCard } from '../../../components/section-card';
import { describeFailure } from '../../../lib/problem-text';
import {
  startTotpSetup,
  useNewRecoveryCodes,
  useRemoveTotp,
  useSecondFactorMutation,
  useSecondFactors,
} from '../api/second-factors';
import { SectionLoadFailed, SectionLoading } from './load-state';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import { TotpEnrolment } from './totp-enrolment';

type Asking = 'remove' | 'newCodes' | null;

/**
 * The authenticator app: set it up (QR code, first code, recovery codes shown once), or, once
 * set up, make new recovery codes or remove it, each after a confirmation. When the tenant
 * requires a second factor and the user has none, the section says so first.
 */
export function AuthenticatorSection() {
  const { t } = useTranslation('account');
  const factors = useSecondFactors();
  return (
    <SectionCard title={t('totp.heading')} intro={t('totp.intro')}>
      {factors.isPending ? <SectionLoading /> : null}
      {factors.isError ? (
        <SectionLoadFailed error={factors.error} onRetry={() => void factors.refetch()} />
      ) : null}
      {factors.isSuccess ? <Authenticator factors={factors.data} /> : null}
    </SectionCard>
  );
}

function Authenticator({ factors }: { factors: SecondFactors }) {
  const { t } = useTranslation(['account', 'lists']);
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  // The codes to show once, and the notice that follows once they are put away.
  const [shown, setShown] = useState<{ codes: string[]; then?: string } | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  // A refusal (an app set up meanwhile in another tab) refreshes the status it contradicts.
  const start = useSecondFactorMutation(startTotpSetup);
  const remove = useRemoveTotp();
  const newCodes = useNewRecoveryCodes();
  const hasAny = factors.totp || factors.passkeys.length > 0;

  return (
    <>
      {factors.required && !hasAny ? <Alert severity="warning">{t('totp.required')}</Alert> : null}
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
        <Typography>{t('totp.status')}</Typography>
        <Chip
          size="small"
          label={factors.totp ? t('totp.on') : t('totp.off')}
          color={factors.totp ? 'success' : 'default'}
          variant={factors.totp ? 'filled' : 'outlined'}
        />
      </Stack>
      {factors.totp ? (
        <>
          <Typography variant="body2" color="text.secondary">
            {t('totp.recoveryLeft', { count: factors.recoveryCodesLeft })}
          </Typography>
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" onClick={() => setAsking('newCodes')}>
              {t('totp.newCodes')}
            </Button>
            <Button variant="outlined" color="error" onClick={() => setAsking('remove')}>
              {t('totp.remove')}
            </Button>
          </Stack>
        </>
      ) : setup ? (
        <TotpEnrolment
          setup={setup}
          onConfirmed={(codes) => {
            setSetup(null);
            setShown({ codes, then: t('totp.enabled') });
          }}
          onCancel={() => setSetup(null)}
        />
      ) : (
        <>
          {start.isError ? (
            <Alert severity="error" role="alert">
              {describeFailure(t, start.error)}
            </Alert>
          ) : null}
          <div>
            <Button
              variant="contained"
              disabled={start.isPending}
              onClick={() => start.mutate(undefined, { onSuccess: setSetup })}
            >
              {t('totp.setUp')}
            </Button>
          </div>
        </>
      )}

      {asking === 'newCodes' ? (
        <ConfirmDialog
          title={t('totp.newCodesTitle')}
          confirmLabel={t('totp.newCodesConfirm')}
          onConfirm={async () => setShown({ codes: (await newCodes.mutateAsync()).recoveryCodes })}
          onClose={() => setAsking(null)}
        >
          {t('totp.newCodesText')}
        </ConfirmDialog>
      ) : null}
      {asking === 'remove' ? (
        <ConfirmDialog
          title={t('totp.removeTitle')}
          confirmLabel={t('totp.removeConfirm')}
          destructive
          onConfirm={async () => {
            await remove.mutateAsync();
            notify(t('totp.removed'));
          }}
          onClose={() => setAsking(null)}
        >
          {t('totp.removeText')}
        </ConfirmDialog>
      ) : null}
      {shown ? (
        <RecoveryCodesDialog
          codes={shown.codes}
          onClose={() => {
            setShown(null);
            if (shown.then) notify(shown.then);
          }}
        />
      ) : null}
    </>
  );
}
