import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { BusyButton } from '../../../components/busy-button';
import { FormField } from '../../../components/form-field';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { paths, type CheckEmailState } from '../../../lib/paths';
import { useForgotPassword } from '../api/forgot-password';
import { AuthLayout } from './auth-layout';
import { describeFailure } from '../../../lib/problem-text';

/** How long the success line stays before the Check your email screen opens. */
const SUCCESS_PAUSE_MS = 1500;

/** Forgot password; the address may arrive as ?email=. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [email, setEmail] = useState(() => search.get('email') ?? '');
  const forgot = useForgotPassword();

  const sentTo = forgot.isSuccess ? forgot.variables.email : null;
  useEffect(() => {
    if (!sentTo) return;
    const timer = window.setTimeout(() => {
      const state: CheckEmailState = { email: sentTo };
      void navigate(paths.checkEmail, { state });
    }, SUCCESS_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [sentTo, navigate]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    forgot.mutate({ email: email.trim() });
  };

  return (
    <AuthLayout title={t('forgot.title')}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <FormField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
        {forgot.isSuccess ? (
          <Alert severity="success" role="status">
            {t('forgot.sent')}
          </Alert>
        ) : null}
        {forgot.isError ? (
          <Alert severity="error" role="alert">
            {t('forgot.failed', { message: describeFailure(t, forgot.error) })}
          </Alert>
        ) : null}
        <BusyButton busy={forgot.isPending} disabled={forgot.isSuccess} sx={{ mt: 2, mb: 2 }}>
          {t('forgot.submit')}
        </BusyButton>
        <Link component={RouterLink} to={paths.root}>
          {t('auth.backToLogin')}
        </Link>
      </Box>
    </AuthLayout>
  );
}
