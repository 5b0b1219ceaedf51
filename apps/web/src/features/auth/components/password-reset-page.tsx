import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths';
import { AuthLayout } from '../ui/auth-layout';
import { AuthLink } from '../ui/controls';

/** Password reset success; Continue loads the console. */
export default function PasswordResetPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('passwordReset.title')}>
      <p className="auth-text">{t('passwordReset.text')}</p>
      <a className="auth-button auth-button-primary" href={paths.home}>
        <span>{t('passwordReset.continue')}</span>
      </a>
      <p className="auth-text auth-after-form">
        <AuthLink to={AUTH_PAGE_PATHS.signIn}>{t('auth.backToLogin')}</AuthLink>
      </p>
    </AuthLayout>
  );
}
