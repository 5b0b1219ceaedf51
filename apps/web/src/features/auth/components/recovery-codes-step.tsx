import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stepFailureText } from './step-failure';

/** The codes as a file: one a line, named so a user finds it again. */
function download(codes: readonly string[]) {
  const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * The recovery codes of a new second factor, shown this once (only their hashes are kept):
 * copy or download them, then go on with the sign-in.
 */
export function RecoveryCodesStep(props: {
  codes: readonly string[];
  onContinue: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const go = useMutation({ mutationFn: props.onContinue });
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('signInSteps.recoveryCodes.intro')}</Typography>
      <Box
        component="ul"
        aria-label={t('signInSteps.recoveryCodes.list')}
        sx={{
          display: 'grid',
          // Two columns where a code fits whole in each, else one: a code never breaks.
          gridTemplateColumns: 'repeat(auto-fit, minmax(11.5em, 1fr))',
          whiteSpace: 'nowrap',
          gap: 1,
          listStyle: 'none',
          p: 2,
          m: 0,
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'monospace',
          fontSize: '0.875rem',
        }}
      >
        {props.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
        <Button
          variant="outlined"
          startIcon={<ContentCopy />}
          onClick={() =>
            void navigator.clipboard.writeText(props.codes.join('\n')).then(() => setCopied(true))
          }
        >
          {t('signInSteps.recoveryCodes.copy')}
        </Button>
        <Button variant="outlined" startIcon={<Download />} onClick={() => download(props.codes)}>
          {t('signInSteps.recoveryCodes.download')}
        </Button>
      </Box>
      <Typography role="status" variant="body2" sx={{ mt: 1, minHeight: '1.5em' }}>
        {copied ? t('signInSteps.recoveryCodes.copied') : ''}
      </Typography>
      {go.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {stepFailureText(t, go.error, 'enrol')}
        </Alert>
      ) : null}
      <Button
        variant="contained"
        fullWidth
        size="large"
        disabled={go.isPending}
        onClick={() => go.mutate()}
        sx={{ mt: 2 }}
      >
        {go.isPending
          ? t('signInSteps.recoveryCodes.continuing')
          : t('signInSteps.recoveryCodes.continue')}
      </Button>
    </>
  );
}
