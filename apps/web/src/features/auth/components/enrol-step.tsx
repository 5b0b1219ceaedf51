import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { TotpSetup } from '@tc/contract/security';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../../components/busy-button';
import { TotpEnrolmentForm } from '../../../components/totp-enrolment-form';
import { stepFailureText } from './step-failure';
import { useCodeEntry } from './use-code-entry';

/**
 * The enrolment the tenant requires, right after the password: the authenticator app's QR code
 * (and its key as text, for an app on the same device), then the app's first code. The answer
 * holds the recovery codes, which the next step shows once.
 */
export default function EnrolStep(props: {
  start: () => Promise<TotpSetup>;
  confirm: (code: string) => Promise<void>;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  // One secret per visit of the step: a query, so a re-render does not start another.
  const [visit] = useState(() => Math.random());
  const setup = useQuery({
    queryKey: ['sign-in-enrolment', visit],
    queryFn: props.start,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const entry = useCodeEntry(props.confirm);
  const confirm = entry.sending;

  const back = (
    <Button onClick={props.onBack} fullWidth sx={{ mt: 1 }}>
      {t('signInSteps.back')}
    </Button>
  );
  if (setup.isPending) {
    return <LinearProgress aria-label={t('signInSteps.enrol.loading')} />;
  }
  if (setup.isError) {
    return (
      <>
        <Alert severity="error" role="alert">
          {stepFailureText(t, setup.error, 'enrol')}
        </Alert>
        {back}
      </>
    );
  }
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('signInSteps.enrol.intro')}</Typography>
      <TotpEnrolmentForm
        setup={setup.data}
        code={entry.code}
        codeRef={entry.field}
        onCodeChange={entry.change}
        codeError={entry.missing ? t('signInSteps.secondFactor.codeRequired') : null}
        onSubmit={entry.submit}
      >
        {confirm.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {stepFailureText(t, confirm.error, 'enrol')}
          </Alert>
        ) : null}
        <BusyButton busy={confirm.isPending} busyLabel={t('signInSteps.enrol.confirming')}>
          {t('signInSteps.enrol.confirm')}
        </BusyButton>
      </TotpEnrolmentForm>
      {back}
    </>
  );
}
