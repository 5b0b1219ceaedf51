import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { FormField } from '../../../components/form-field';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths, type CheckEmailState } from '../../../lib/paths';
import { useForgotPassword } from '../api/forgot-password';
import { AuthLayout } from './auth-layout';
import { describeFailure } from '../../../lib/problem-text';

function stateEmail(state: unknown): string {
  const email = (state as Partial<CheckEmailState> | null)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * Check your email. "Open email app" opens the visitor's mail program (mailto:);
 * "Click to resend" really sends the reset link again, to the address in the field.
 */
export default function CheckEmailPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [email, setEmail] = useState(() => stateEmail(location.state));
  const resend = useForgotPassword();
  const address = email.trim();

  return (
    <AuthLayout title={t('checkEmail.title')}>
      <Typography sx={{ mb: 1 }}>{t('checkEmail.sentTo', { email: address })}</Typography>
      <FormField
        label={t('auth.email')}
        type="email"
        name="email"
        placeholder={t('checkEmail.placeholder')}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Button
        variant="contained"
        fullWidth
        size="large"
        href={`mailto:${address}`}
        sx={{ mt: 1, mb: 2 }}
      >
        {t('checkEmail.openApp')}
      </Button>
      <Typography sx={{ mb: 2 }}>
        {t('checkEmail.notReceived')}{' '}
        <Link
          component="button"
          type="button"
          disabled={resend.isPending || address === ''}
          onClick={() => resend.mutate({ email: address })}
          sx={{ verticalAlign: 'baseline' }}
        >
          {t('checkEmail.resend')}
        </Link>
      </Typography>
      {resend.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {t('forgot.sent')}
        </Alert>
      ) : null}
      {resend.isError ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('forgot.failed', { message: describeFailure(t, resend.error) })}
        </Alert>
      ) : null}
      <Box>
        <Link component={RouterLink} to={paths.root}>
          {t('auth.backToLogin')}
        </Link>
      </Box>
    </AuthLayout>
  );
}
