import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthPage } from '../auth-page-context';
import { hostedSignInDriver } from '../api/hosted-sign-in';
import { AuthLayout } from '../ui/auth-layout';
import { Alert } from '../ui/controls';
import SignInPage from './sign-in-page';

/**
 * The identity provider's sign-in page for an application of the tenant: the console's own
 * sign-in screen and its steps (second factor, enrolment, passkey), with the tenant of the
 * realm signed in to and the request's details (login hint, whether passkeys work on this
 * address) as the server rendered the page with them, in the language it chose.
 */
export default function HostedSignInPage() {
  const { t } = useTranslation();
  const { hosted } = useAuthPage().state;
  const realm = hosted?.realm ?? '';
  const uid = hosted?.uid ?? '';
  const driver = useMemo(() => hostedSignInDriver(realm, uid), [realm, uid]);

  if (!hosted || hosted.expired) {
    return (
      <AuthLayout title={t('signIn.title')}>
        <Alert severity="error">{t('signIn.requestExpired')}</Alert>
      </AuthLayout>
    );
  }
  return (
    <SignInPage
      hosted={{
        driver,
        realm,
        uid,
        loginHint: hosted.loginHint,
        passkeys: hosted.passkeys,
      }}
    />
  );
}
