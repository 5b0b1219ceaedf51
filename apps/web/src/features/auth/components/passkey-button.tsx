import Key from '@mui/icons-material/Key';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { stepFailureText } from './step-failure';

/** Whether this browser can use passkeys at all (WebAuthn); where not, no button is offered. */
export const passkeysSupported = () => browserSupportsWebAuthn();

/**
 * "Sign in with a passkey": the browser's own prompt does the rest. Busy while the prompt is
 * open; a refusal (prompt closed, passkey unknown to the account) is shown under the button.
 */
export function PasskeyButton(props: { label: string; signIn: () => Promise<void> }) {
  const { t } = useTranslation();
  const passkey = useMutation({ mutationFn: props.signIn });
  if (!passkeysSupported()) return null;
  return (
    <>
      <Button
        variant="outlined"
        fullWidth
        size="large"
        startIcon={<Key />}
        disabled={passkey.isPending}
        onClick={() => passkey.mutate()}
      >
        {passkey.isPending ? t('signInSteps.passkeyBusy') : props.label}
      </Button>
      {passkey.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {stepFailureText(t, passkey.error, 'passkey')}
        </Alert>
      ) : null}
    </>
  );
}
