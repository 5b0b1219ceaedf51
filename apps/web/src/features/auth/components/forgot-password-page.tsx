import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CheckEmailState } from '../../../lib/paths';
import { describeFailure } from '../../../lib/problem-text';
import { useAuthPage } from '../auth-page-context';
import { useForgotPassword } from '../api/forgot-password';
import { AuthLayout } from '../ui/auth-layout';
import { Alert, AuthLink, PrimaryButton } from '../ui/controls';
import { TextField } from '../ui/fields';
import { useTypedValue } from '../ui/use-typed-value';
import { pageFailure } from './page-error';
import { FormToken } from './form-token';

/** How long the success line stays before the Check your email screen opens. */
const SUCCESS_PAUSE_MS = 1500;

/**
 * Forgot password; the address may arrive as ?email=. Without script the form posts to
 * /forgotpassword and the server answers with the Check your email page.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { state, search, navigate } = useAuthPage();
  const [email, setEmail] = useState(() => state.values?.email ?? search.get('email') ?? '');
  const emailField = useTypedValue(email, setEmail);
  const forgot = useForgotPassword();
  const [refused, setRefused] = useState(() => pageFailure(state.error));

  const sentTo = forgot.isSuccess ? (forgot.input?.email ?? null) : null;
  useEffect(() => {
    if (sentTo === null) return;
    const timer = window.setTimeout(() => {
      const checkEmail: CheckEmailState = { email: sentTo };
      navigate(AUTH_PAGE_PATHS.checkEmail, { state: checkEmail });
    }, SUCCESS_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [sentTo, navigate]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setRefused(undefined);
    forgot.run({ email: email.trim() });
  };

  const failure = forgot.isError ? forgot.error : refused;
  return (
    <AuthLayout title={t('forgot.title')}>
      <form method="post" action={AUTH_PAGE_PATHS.forgotPassword} noValidate onSubmit={onSubmit}>
        <FormToken />
        <TextField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          inputRef={emailField}
          required
        />
        {forgot.isSuccess ? <Alert severity="success">{t('forgot.sent')}</Alert> : null}
        {failure !== undefined ? (
          <Alert severity="error">
            {t('forgot.failed', { message: describeFailure(t, failure) })}
          </Alert>
        ) : null}
        <PrimaryButton busy={forgot.isPending} disabled={forgot.isSuccess}>
          {t('forgot.submit')}
        </PrimaryButton>
      </form>
      <p className="auth-text auth-after-form">
        <AuthLink to={AUTH_PAGE_PATHS.signIn}>{t('auth.backToLogin')}</AuthLink>
      </p>
    </AuthLayout>
  );
}
