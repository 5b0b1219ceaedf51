import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '../api/use-action';
import { Alert, Button } from '../ui/controls';
import { stepFailureText } from './step-failure';

/**
 * Whether this browser can use passkeys at all (WebAuthn), known once the page runs: the
 * server renders no passkey button, and the WebAuthn helper loads only where one is shown.
 */
export function usePasskeysSupported(): boolean {
  const [supported, setSupported] = useState(false);
  useEffect(() => {
    let active = true;
    void import('@simplewebauthn/browser')
      .then(({ browserSupportsWebAuthn }) => {
        if (active) setSupported(browserSupportsWebAuthn());
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, []);
  return supported;
}

/**
 * "Sign in with a passkey": the browser's own prompt does the rest. Busy while the prompt is
 * open; a refusal (prompt closed, passkey unknown to the account) is shown under the button.
 * Shown by the caller only where passkeys work (usePasskeysSupported).
 */
export function PasskeyButton(props: { label: string; signIn: () => Promise<void> }) {
  const { t } = useTranslation();
  const passkey = useAction(props.signIn);
  return (
    <>
      <Button variant="outlined" disabled={passkey.isPending} onClick={() => passkey.run()}>
        {passkey.isPending ? t('signInSteps.passkeyBusy') : props.label}
      </Button>
      {passkey.isError ? (
        <Alert severity="error">{stepFailureText(t, passkey.error, 'passkey')}</Alert>
      ) : null}
    </>
  );
}
