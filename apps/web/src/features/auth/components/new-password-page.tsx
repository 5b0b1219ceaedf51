import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { useResetPassword } from '../api/reset-password';
import { AuthLayout } from './auth-layout';
import { BusyButton } from '../../../components/busy-button';
import { PasswordChecklist } from '../../../components/password-checklist';
import { PasswordField } from '../../../components/password-field';
import { describeFailure } from '../../../lib/problem-text';

/** Set new password, with the token of the e-mailed /newpassword?token=… link. */
export default function NewPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const reset = useResetPassword();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const differs = password !== confirm;
    setMismatch(differs);
    if (differs) return;
    reset.mutate({ token, password }, { onSuccess: () => void navigate(paths.passwordReset) });
  };

  return (
    <AuthLayout title={t('newPassword.title')}>
      {token === '' ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('newPassword.noToken')}{' '}
          <Link component={RouterLink} to={paths.forgotPassword}>
            {t('newPassword.requestNew')}
          </Link>
        </Alert>
      ) : null}
      <Box component="form" noValidate onSubmit={onSubmit}>
        <PasswordField
          label={t('newPassword.password')}
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
        <PasswordField
          label={t('newPassword.confirm')}
          name="confirm"
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          error={mismatch}
          helperText={mismatch ? t('password.mismatch') : undefined}
          required
        />
        <PasswordChecklist password={password} confirm={confirm} />
        {reset.isError ? (
          <Alert severity="error" role="alert">
            {describeFailure(t, reset.error)}
          </Alert>
        ) : null}
        <BusyButton busy={reset.isPending} disabled={token === ''} sx={{ mt: 2, mb: 2 }}>
          {t('newPassword.submit')}
        </BusyButton>
        <Link component={RouterLink} to={paths.root}>
          {t('auth.backToLogin')}
        </Link>
      </Box>
    </AuthLayout>
  );
}
