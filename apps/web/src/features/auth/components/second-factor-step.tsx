import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { SecondFactorMethod } from '@tc/contract/sign-in-steps';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../../components/busy-button';
import { CodeField } from '../../../components/code-field';
import { PasskeyButton } from './passkey-button';
import { stepFailureText } from './step-failure';
import { useCodeEntry } from './use-code-entry';

/**
 * The step after the password for a user with a second factor: the authenticator app's code,
 * or one of the recovery codes, or a passkey where the user has one. A wrong code keeps the
 * step, with the reason, so the next try is one field away.
 */
export function SecondFactorStep(props: {
  methods: readonly SecondFactorMethod[];
  verify: (code: string) => Promise<void>;
  passkey: () => Promise<void>;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const hasCodes = props.methods.includes('totp') || props.methods.includes('recovery-code');
  const [recovery, setRecovery] = useState(
    !props.methods.includes('totp') && props.methods.includes('recovery-code'),
  );
  const entry = useCodeEntry(props.verify);
  const verify = entry.sending;

  const toggle = () => {
    setRecovery((value) => !value);
    entry.clear();
  };

  const intro = !hasCodes
    ? t('signInSteps.secondFactor.passkeyIntro')
    : recovery
      ? t('signInSteps.secondFactor.recoveryIntro')
      : t('signInSteps.secondFactor.intro');

  return (
    <>
      <Typography sx={{ mb: 1 }}>{intro}</Typography>
      {hasCodes ? (
        <Box component="form" noValidate onSubmit={entry.submit}>
          <CodeField
            key={recovery ? 'recovery' : 'totp'}
            kind={recovery ? 'recovery-code' : 'totp'}
            label={
              recovery
                ? t('signInSteps.secondFactor.recoveryCode')
                : t('signInSteps.secondFactor.code')
            }
            value={entry.code}
            inputRef={entry.field}
            onChange={entry.change}
            error={entry.missing ? t('signInSteps.secondFactor.codeRequired') : null}
          />
          {verify.isError ? (
            <Alert severity="error" role="alert" sx={{ mt: 1 }}>
              {stepFailureText(t, verify.error, recovery ? 'recovery-code' : 'code')}
            </Alert>
          ) : null}
          <BusyButton busy={verify.isPending} busyLabel={t('signInSteps.secondFactor.verifying')}>
            {t('signInSteps.secondFactor.verify')}
          </BusyButton>
          {props.methods.includes('recovery-code') && props.methods.includes('totp') ? (
            <Button onClick={toggle} fullWidth sx={{ mt: 1 }}>
              {recovery
                ? t('signInSteps.secondFactor.useAuthenticator')
                : t('signInSteps.secondFactor.useRecoveryCode')}
            </Button>
          ) : null}
        </Box>
      ) : null}
      {props.methods.includes('passkey') ? (
        <>
          {hasCodes ? <Divider sx={{ my: 2 }} /> : null}
          <PasskeyButton
            label={hasCodes ? t('signInSteps.secondFactor.usePasskey') : t('signInSteps.passkey')}
            signIn={props.passkey}
          />
        </>
      ) : null}
      <Button onClick={props.onBack} fullWidth sx={{ mt: 1 }}>
        {t('signInSteps.back')}
      </Button>
    </>
  );
}
