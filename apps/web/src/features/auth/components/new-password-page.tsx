import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure, translateCode } from '../../../lib/problem-text';
import { useAuthPage } from '../auth-page-context';
import { useResetPassword } from '../api/reset-password';
import { AuthLayout } from '../ui/auth-layout';
import { Alert, AuthLink, PrimaryButton } from '../ui/controls';
import { PasswordField } from '../ui/fields';
import { PasswordChecklist } from '../ui/password-checklist';
import { useTypedValue } from '../ui/use-typed-value';
import { failureBeyondFields, fieldProblems, pageFailure } from './page-error';
import { FormToken } from './form-token';

/**
 * Set new password, with the token of the e-mailed /newpassword?token=… link. Without script
 * the form posts to /newpassword (the token in a hidden field) and the server answers.
 */
export default function NewPasswordPage() {
  const { t } = useTranslation();
  const { state, search, navigate } = useAuthPage();
  const token = search.get('token') ?? state.values?.token ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const passwordField = useTypedValue(password, setPassword);
  const confirmField = useTypedValue(confirm, setConfirm);
  const reset = useResetPassword();
  const [refused, setRefused] = useState(() => pageFailure(state.error));
  // A mismatch found here, or refused by the server at the field (`password.mismatch`).
  const [mismatch, setMismatch] = useState(() => {
    const problem = fieldProblems(refused).confirm;
    return problem ? translateCode(t, problem) : null;
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const differs = password !== confirm;
    setMismatch(differs ? t('password.mismatch') : null);
    setRefused(undefined);
    if (differs) return;
    reset.run({ token, password }, { onSuccess: () => navigate(AUTH_PAGE_PATHS.passwordReset) });
  };

  const failure = reset.isError ? reset.error : refused;
  const showFailure = failure !== undefined && failureBeyondFields(failure, ['confirm']);
  return (
    <AuthLayout title={t('newPassword.title')}>
      {token === '' ? (
        <Alert severity="error">
          {t('newPassword.noToken')}{' '}
          <AuthLink to={AUTH_PAGE_PATHS.forgotPassword}>{t('newPassword.requestNew')}</AuthLink>
        </Alert>
      ) : null}
      <form method="post" action={AUTH_PAGE_PATHS.newPassword} noValidate onSubmit={onSubmit}>
        <FormToken />
        <input type="hidden" name="token" value={token} />
        <PasswordField
          label={t('newPassword.password')}
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          inputRef={passwordField}
          required
        />
        <PasswordField
          label={t('newPassword.confirm')}
          name="confirm"
          autoComplete="new-password"
          value={confirm}
          onChange={setConfirm}
          inputRef={confirmField}
          error={mismatch}
          required
        />
        <PasswordChecklist password={password} confirm={confirm} />
        {showFailure ? <Alert severity="error">{describeFailure(t, failure)}</Alert> : null}
        <PrimaryButton busy={reset.isPending} disabled={token === ''}>
          {t('newPassword.submit')}
        </PrimaryButton>
      </form>
      <p className="auth-text auth-after-form">
        <AuthLink to={AUTH_PAGE_PATHS.signIn}>{t('auth.backToLogin')}</AuthLink>
      </p>
    </AuthLayout>
  );
}
