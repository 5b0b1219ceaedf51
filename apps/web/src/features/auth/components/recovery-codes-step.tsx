import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../../components/busy-button';
import { RecoveryCodesList } from '../../../components/recovery-codes-list';
import { stepFailureText } from './step-failure';

/**
 * The recovery codes of a new second factor, shown this once (only their hashes are kept):
 * copy or download them, then go on with the sign-in.
 */
export function RecoveryCodesStep(props: {
  codes: readonly string[];
  onContinue: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const go = useMutation({ mutationFn: props.onContinue });
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('signInSteps.recoveryCodes.intro')}</Typography>
      <RecoveryCodesList codes={props.codes} />
      {go.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {stepFailureText(t, go.error, 'enrol')}
        </Alert>
      ) : null}
      <BusyButton
        busy={go.isPending}
        busyLabel={t('signInSteps.recoveryCodes.continuing')}
        onClick={() => go.mutate()}
      >
        {t('signInSteps.recoveryCodes.continue')}
      </BusyButton>
    </>
  );
}
