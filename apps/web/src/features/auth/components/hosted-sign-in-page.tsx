import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { languages } from '../../../lib/i18n';
import { identifyTenantQuery } from '../../../lib/identify-tenant';
import { TenantOverride } from '../../../lib/use-tenant';
import { fetchHostedSignIn, hostedSignInDriver } from '../api/hosted-sign-in';
import { AuthLayout } from './auth-layout';
import SignInPage from './sign-in-page';

/**
 * The identity provider's sign-in page for an application of the tenant: the console's own
 * sign-in screen and its steps (second factor, enrolment, passkey), with the tenant of the
 * realm signed in to (its identify answer says whether Google is offered), the language the
 * application asked for (`ui_locales`) and whether passkeys work on this address.
 */
export default function HostedSignInPage() {
  const { t, i18n } = useTranslation();
  const { realm = '', uid = '' } = useParams();
  const details = useQuery({
    queryKey: ['hosted-sign-in', realm, uid],
    queryFn: () => fetchHostedSignIn(realm, uid),
    retry: false,
    staleTime: Infinity,
  });
  const driver = useMemo(() => hostedSignInDriver(realm, uid), [realm, uid]);
  const tenantId = details.data?.tenantId;
  const tenant = useQuery({ ...identifyTenantQuery(tenantId), enabled: Boolean(tenantId) });

  const asked = details.data?.uiLocales
    ?.split(' ')
    .find((tag) => (languages as readonly string[]).includes(tag));
  useEffect(() => {
    if (asked && asked !== i18n.language) void i18n.changeLanguage(asked);
  }, [asked, i18n]);

  if (details.isError) {
    return (
      <AuthLayout title={t('signIn.title')}>
        <Alert severity="error" role="alert">
          {t('signIn.requestExpired')}
        </Alert>
      </AuthLayout>
    );
  }
  if (details.isPending || (tenantId && tenant.isPending)) {
    return (
      <AuthLayout title={t('signIn.title')}>
        <LinearProgress aria-label={t('signIn.submitting')} />
      </AuthLayout>
    );
  }
  return (
    <TenantOverride.Provider value={tenant.data}>
      <SignInPage
        hosted={{
          driver,
          loginHint: details.data.loginHint,
          passkeys: details.data.passkeys === true,
        }}
      />
    </TenantOverride.Provider>
  );
}
