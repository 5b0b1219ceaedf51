import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { SecondFactors } from '@tc/contract/security';
import { useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field';
import { PasswordField } from '../../../components/password-field';
import { ApiError } from '../../../lib/api-client';
import { describeFailure, problemFields, translateCode } from '../../../lib/problem-text';
import { proofRequests, reverify, reverifyWithPasskey, type ProofRequest } from '../api/reverify';
import { useSecondFactors } from '../api/second-factors';

type Method = 'password' | 'code';

/**
 * Asks for the password, a code or a passkey when the server wants a recent proof before a
 * change of the sign-in security; on success the held change is sent again. Rendered once on
 * the account page, it opens by itself when a change is held (api/reverify.ts).
 */
export function ReverifyDialog() {
  const request = useSyncExternalStore(proofRequests.subscribe, proofRequests.current);
  const factors = useSecondFactors();
  return request ? <ProofDialog request={request} factors={factors.data} /> : null;
}

function ProofDialog({ request, factors }: { request: ProofRequest; factors?: SecondFactors }) {
  const { t } = useTranslation(['account', 'lists']);
  const titleId = useId();
  const [method, setMethod] = useState<Method>('password');
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hasCodes = factors ? factors.totp || factors.recoveryCodesLeft > 0 : false;
  const hasPasskeys = (factors?.passkeys.length ?? 0) > 0;

  async function prove(send: () => Promise<unknown>, describe?: (error: unknown) => string) {
    setBusy(true);
    setFieldError(null);
    setFailure(null);
    try {
      await send();
      request.proven();
    } catch (error) {
      setBusy(false);
      const onField = error instanceof ApiError ? problemFields(error)[method] : undefined;
      if (onField) setFieldError(translateCode(t, onField));
      else
        setFailure(
          describe && !(error instanceof ApiError) ? describe(error) : describeFailure(t, error),
        );
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') {
      setFieldError(t(method === 'password' ? 'reverify.passwordMissing' : 'reverify.codeMissing'));
      return;
    }
    void prove(() => reverify(method === 'password' ? { password: value } : { code: value }));
  };

  const switchTo = (next: Method) => {
    setMethod(next);
    setValue('');
    setFieldError(null);
  };

  const field = {
    name: method,
    value,
    onChange: (event: { target: { value: string } }) => setValue(event.target.value),
    required: true,
    error: fieldError !== null,
    helperText: fieldError ?? undefined,
    // The field is what the dialog is for: typing starts at once, Enter confirms.
    autoFocus: true,
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : request.cancelled}
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 440, m: 2, width: 'calc(100% - 32px)' } }}
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('reverify.title')}</DialogTitle>
        <DialogContent>
          {failure ? (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          ) : null}
          <DialogContentText>
            {t(method === 'password' ? 'reverify.introPassword' : 'reverify.introCode')}
          </DialogContentText>
          {method === 'password' ? (
            <PasswordField
              {...field}
              label={t('password.current')}
              autoComplete="current-password"
            />
          ) : (
            <FormField {...field} label={t('reverify.code')} autoComplete="one-time-code" />
          )}
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
            {hasCodes ? (
              <Button
                size="small"
                disabled={busy}
                onClick={() => switchTo(method === 'password' ? 'code' : 'password')}
              >
                {t(method === 'password' ? 'reverify.useCode' : 'reverify.usePassword')}
              </Button>
            ) : null}
            {hasPasskeys ? (
              <Button
                size="small"
                disabled={busy}
                onClick={() =>
                  void prove(reverifyWithPasskey, (error) =>
                    t('reverify.passkeyFailed', {
                      message: error instanceof Error ? error.message : String(error),
                    }),
                  )
                }
              >
                {t('reverify.usePasskey')}
              </Button>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={request.cancelled} disabled={busy}>
            {t('lists:cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('reverify.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
