import type { SecondFactorMethod } from '@tc/contract/sign-in-steps';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, PrimaryButton } from '../ui/controls';
import { CodeField } from '../ui/fields';
import { PasskeyButton, usePasskeysSupported } from './passkey-button';
import { stepFailureText } from './step-failure';
import { useCodeEntry } from './use-code-entry';
import { FormToken } from './form-token';

/**
 * The step after the password for a user with a second factor: the authenticator app's code,
 * or one of the recovery codes, or a passkey where the user has one. A wrong code keeps the
 * step, with the reason, so the next try is one field away. Without script the code form
 * posts to `action` (the sign-in request's page, which the server answers).
 */
export function SecondFactorStep(props: {
  methods: readonly SecondFactorMethod[];
  verify: (code: string) => Promise<void>;
  passkey: () => Promise<void>;
  onBack: () => void;
  action?: string;
  /** The refusal of a code posted without script, which the page was rendered with. */
  refused?: unknown;
}) {
  const { t } = useTranslation();
  const hasCodes = props.methods.includes('totp') || props.methods.includes('recovery-code');
  const [recovery, setRecovery] = useState(
    !props.methods.includes('totp') && props.methods.includes('recovery-code'),
  );
  const entry = useCodeEntry(props.verify, props.refused);
  const passkeys = usePasskeysSupported();

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
      <p className="auth-text">{intro}</p>
      {hasCodes ? (
        <form method="post" action={props.action} noValidate onSubmit={entry.submit}>
          <FormToken />
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
          {entry.failure !== undefined ? (
            <Alert severity="error">
              {stepFailureText(t, entry.failure, recovery ? 'recovery-code' : 'code')}
            </Alert>
          ) : null}
          <PrimaryButton
            busy={entry.sending.isPending}
            busyLabel={t('signInSteps.secondFactor.verifying')}
          >
            {t('signInSteps.secondFactor.verify')}
          </PrimaryButton>
          {props.methods.includes('recovery-code') && props.methods.includes('totp') ? (
            <Button onClick={toggle}>
              {recovery
                ? t('signInSteps.secondFactor.useAuthenticator')
                : t('signInSteps.secondFactor.useRecoveryCode')}
            </Button>
          ) : null}
        </form>
      ) : null}
      {props.methods.includes('passkey') && passkeys ? (
        <>
          {hasCodes ? <hr className="auth-divider" /> : null}
          <PasskeyButton
            label={hasCodes ? t('signInSteps.secondFactor.usePasskey') : t('signInSteps.passkey')}
            signIn={props.passkey}
          />
        </>
      ) : null}
      <Button onClick={props.onBack}>{t('signInSteps.back')}</Button>
    </>
  );
}
