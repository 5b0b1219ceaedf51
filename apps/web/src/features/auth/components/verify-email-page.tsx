import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/problem-text';
import { useAuthPage } from '../auth-page-context';
import { useVerifyEmail } from '../api/verify-email';
import { AuthLayout } from '../ui/auth-layout';
import { Alert, AuthLink, Progress } from '../ui/controls';

/**
 * Opens the e-mailed /verifyemail?token=… link and activates the account, once the page runs
 * (rendered as verifying; the link is a GET, which must not use the token up by itself).
 */
export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const token = useAuthPage().search.get('token') ?? '';
  const verify = useVerifyEmail(token);

  let content;
  if (token === '') {
    content = <Alert severity="error">{t('verifyEmail.noToken')}</Alert>;
  } else if (verify.status === 'pending') {
    content = <Progress label={t('verifyEmail.verifying')} />;
  } else if (verify.status === 'error') {
    content = (
      <Alert severity="error">
        {t('verifyEmail.failed', { message: describeFailure(t, verify.error) })}
      </Alert>
    );
  } else {
    content = (
      <Alert severity="success">
        {t('verifyEmail.success', { email: verify.data.data.email })}
      </Alert>
    );
  }

  return (
    <AuthLayout title={t('verifyEmail.title')}>
      {content}
      <p className="auth-text auth-after-form">
        <AuthLink to={AUTH_PAGE_PATHS.signIn}>{t('verifyEmail.toSignIn')}</AuthLink>
      </p>
    </AuthLayout>
  );
}
