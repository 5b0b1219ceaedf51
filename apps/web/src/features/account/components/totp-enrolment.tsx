import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { totpConfirmRequestSchema, type TotpSetup } from '@tc/contract/security';
import { useState } from 'react';
import { useController, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { typedCode } from '../../../components/code-field';
import { TotpEnrolmentForm } from '../../../components/totp-enrolment-form';
import { contractResolver } from '../../../lib/form-resolver';
import { placeFieldProblems, translateFieldMessage } from '../../../lib/problem-text';
import { useConfirmTotp } from '../api/second-factors';

/**
 * Adding an authenticator app from the account page: the QR code and key, then the app's
 * first code, which confirms it. The answer is the recovery codes, handed to `onConfirmed`.
 */
export function TotpEnrolment(props: {
  setup: TotpSetup;
  onConfirmed: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(['account', 'lists']);
  const confirm = useConfirmTotp();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ code: string }>({
    resolver: contractResolver(totpConfirmRequestSchema) as Resolver<{ code: string }>,
    defaultValues: { code: '' },
  });
  const code = useController({ control: form.control, name: 'code' });

  const submit = form.handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      const { recoveryCodes } = await confirm.mutateAsync(typedCode(code));
      props.onConfirmed(recoveryCodes);
    } catch (error) {
      setFailure(
        placeFieldProblems(t, error, new Set(['code']), (_field, message) =>
          form.setError('code', { type: 'server', message }),
        ).failure,
      );
    }
  });

  const busy = form.formState.isSubmitting;
  const codeError = code.fieldState.error?.message;
  return (
    <Stack spacing={2}>
      <Typography>{t('totp.scan')}</Typography>
      <TotpEnrolmentForm
        setup={props.setup}
        code={code.field.value}
        onCodeChange={code.field.onChange}
        codeRef={code.field.ref}
        codeError={codeError ? translateFieldMessage(t, codeError) : null}
        disabled={busy}
        onSubmit={(event) => void submit(event)}
      >
        {failure ? (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        ) : null}
        <Stack direction="row" sx={{ gap: 1, mt: 2 }}>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('totp.confirm')}
          </Button>
          <Button onClick={props.onCancel} disabled={busy}>
            {t('lists:cancel')}
          </Button>
        </Stack>
      </TotpEnrolmentForm>
    </Stack>
  );
}
