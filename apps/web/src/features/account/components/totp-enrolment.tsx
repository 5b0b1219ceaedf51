import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { totpConfirmRequestSchema, type TotpSetup } from '@tc/contract/security';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { TextInput } from '../../../components/form/form-fields';
import { contractResolver } from '../../../lib/form-resolver';
import { placeFieldProblems } from '../../../lib/problem-text';
import { useConfirmTotp } from '../api/second-factors';

/**
 * Adding an authenticator app: its QR code, drawn here from the otpauth URI (the secret never
 * goes to an image service), the key as text for an app on this same device, then the app's
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

  const submit = form.handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      // Apps show the code as "123 456".
      const { recoveryCodes } = await confirm.mutateAsync(code.replace(/\s+/g, ''));
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
  return (
    <Stack spacing={2}>
      <Typography>{t('totp.scan')}</Typography>
      <Box sx={{ p: 1, bgcolor: '#fff', alignSelf: 'flex-start', borderRadius: 1, lineHeight: 0 }}>
        <QRCodeSVG
          value={props.setup.otpauthUri}
          size={184}
          marginSize={2}
          role="img"
          aria-label={t('totp.qrLabel')}
          title={t('totp.qrLabel')}
        />
      </Box>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          label={t('totp.secret')}
          value={props.setup.secret}
          size="small"
          sx={{ minWidth: 280, flex: 1 }}
          slotProps={{
            htmlInput: {
              readOnly: true,
              spellCheck: false,
              'data-testid': 'totp-secret',
              sx: { fontFamily: 'monospace' },
            },
          }}
          onFocus={(event) => event.target.select()}
        />
        <CopyButton text={props.setup.secret} label={t('totp.copySecret')} />
      </Stack>
      <Stack component="form" noValidate onSubmit={(event) => void submit(event)} spacing={1}>
        {failure ? (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Box sx={{ maxWidth: 280 }}>
          <TextInput
            control={form.control}
            name="code"
            label={t('totp.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            disabled={busy}
            required
          />
        </Box>
        <Stack direction="row" sx={{ gap: 1 }}>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('totp.confirm')}
          </Button>
          <Button onClick={props.onCancel} disabled={busy}>
            {t('lists:cancel')}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  );
}
