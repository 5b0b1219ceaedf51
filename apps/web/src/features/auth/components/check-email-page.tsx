import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CheckEmailState } from '../../../lib/paths';
import { describeFailure } from '../../../lib/problem-text';
import { useAuthPage } from '../auth-page-context';
import { useForgotPassword } from '../api/forgot-password';
import { AuthLayout } from '../ui/auth-layout';
import { Alert, AuthLink } from '../ui/controls';
import { TextField } from '../ui/fields';
import { useTypedValue } from '../ui/use-typed-value';
import { FormToken } from './form-token';

function stateEmail(state: unknown): string | undefined {
  const email = (state as Partial<CheckEmailState> | null)?.email;
  return typeof email === 'string' ? email : undefined;
}

/**
 * Check your email. "Open email app" opens the visitor's mail program (mailto:);
 * "Click to resend" really sends the reset link again, to the address in the field (without
 * script, a form posted to /forgotpassword). The address comes from the page before
 * (navigation state), or from the server after a form posted without script.
 */
export default function CheckEmailPage() {
  const { t } = useTranslation();
  const { state, navigationState } = useAuthPage();
  const [email, setEmail] = useState(
    () => stateEmail(navigationState) ?? state.values?.email ?? '',
  );
  const emailField = useTypedValue(email, setEmail);
  const resend = useForgotPassword();
  const address = email.trim();

  return (
    <AuthLayout title={t('checkEmail.title')}>
      <p className="auth-text">{t('checkEmail.sentTo', { email: address })}</p>
      <form
        method="post"
        action={AUTH_PAGE_PATHS.forgotPassword}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (address !== '') resend.run({ email: address });
        }}
      >
        <FormToken />
        <TextField
          label={t('auth.email')}
          type="email"
          name="email"
          placeholder={t('checkEmail.placeholder')}
          value={email}
          onChange={setEmail}
          inputRef={emailField}
        />
        <a className="auth-button auth-button-primary" href={`mailto:${address}`}>
          <span>{t('checkEmail.openApp')}</span>
        </a>
        <p className="auth-text auth-after-form">
          {t('checkEmail.notReceived')}{' '}
          <button
            type="submit"
            className="auth-link-button"
            disabled={resend.isPending || address === ''}
          >
            {t('checkEmail.resend')}
          </button>
        </p>
      </form>
      {resend.isSuccess ? <Alert severity="success">{t('forgot.sent')}</Alert> : null}
      {resend.isError ? (
        <Alert severity="error">
          {t('forgot.failed', { message: describeFailure(t, resend.error) })}
        </Alert>
      ) : null}
      <p className="auth-text">
        <AuthLink to={AUTH_PAGE_PATHS.signIn}>{t('auth.backToLogin')}</AuthLink>
      </p>
    </AuthLayout>
  );
}
