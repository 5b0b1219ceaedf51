import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { TotpSetup } from '@tc/contract/security';
import { QRCodeSVG } from 'qrcode.react';
import type { FormEvent, ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeField } from './code-field';
import { CopyButton } from './copy-button';

/**
 * Adding an authenticator app, wherever it is offered (the account page, the enrolment a
 * tenant requires at sign-in): its QR code, drawn here from the otpauth URI (the secret never
 * goes to an image service), the key as text to copy for an app on this same device, and the
 * form of the app's first code. The caller checks and sends the code; its failure and buttons
 * are the form's `children`, after the field.
 */
export function TotpEnrolmentForm(props: {
  setup: TotpSetup;
  code: string;
  onCodeChange: (value: string) => void;
  codeError?: string | null;
  codeRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('second-factor');
  return (
    <Stack spacing={2}>
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
      <Box component="form" noValidate onSubmit={props.onSubmit}>
        <Box sx={{ maxWidth: 320 }}>
          <CodeField
            kind="totp"
            label={t('totp.code')}
            value={props.code}
            onChange={props.onCodeChange}
            error={props.codeError}
            inputRef={props.codeRef}
            disabled={props.disabled}
          />
        </Box>
        {props.children}
      </Box>
    </Stack>
  );
}
