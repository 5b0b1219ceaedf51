import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hostedSignInPath } from '@tc/contract/links';
import { useAuthPage } from '../auth-page-context';
import { sendConsent, type ConsentDecision } from '../api/consent';
import { AuthLayout } from '../ui/auth-layout';
import { Alert } from '../ui/controls';
import { FormToken } from './form-token';

/**
 * The consent page: an application that is not the tenant's own asks to use the signed-in
 * user's account. It lists what the application asks for, in plain words, and posts Allow or
 * Deny to the sign-in request's page (without script) or its consent step (with script); the
 * browser then goes back to the application, with a code or with access_denied.
 */
export default function ConsentPage() {
  const { t } = useTranslation();
  const { state } = useAuthPage();
  const [busy, setBusy] = useState<ConsentDecision | null>(null);
  const [failed, setFailed] = useState(state.error !== undefined);
  const { hosted, consent } = state;

  if (!hosted || hosted.expired || !consent) {
    return (
      <AuthLayout title={t('signIn.title')}>
        <Alert severity="error">{t('signIn.requestExpired')}</Alert>
      </AuthLayout>
    );
  }
  const application = consent.clientName;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const decision: ConsentDecision = submitter?.value === 'deny' ? 'deny' : 'allow';
    setBusy(decision);
    setFailed(false);
    sendConsent(hosted.realm, hosted.uid, decision).then(
      (redirectTo) => window.location.assign(redirectTo),
      () => {
        setBusy(null);
        setFailed(true);
      },
    );
  };

  return (
    <AuthLayout title={t('consent.title', { application })}>
      <p>{t('consent.intro', { application, tenant: state.tenant?.name ?? '' })}</p>
      <ul
        className="auth-consent-scopes"
        aria-label={t('consent.intro', { application, tenant: state.tenant?.name ?? '' })}
      >
        {consent.scopes.map((scope) => (
          <li key={scope}>{t(`consent.scope.${scope}`, { defaultValue: scope })}</li>
        ))}
      </ul>
      <p>{t('consent.note')}</p>
      {failed ? <Alert severity="error">{t('signIn.requestExpired')}</Alert> : null}
      <form method="post" action={hostedSignInPath(hosted.realm, hosted.uid)} onSubmit={onSubmit}>
        <FormToken />
        <div className="auth-actions">
          <button
            type="submit"
            name="decision"
            value="allow"
            className="auth-button auth-button-primary"
            disabled={busy !== null}
            aria-busy={busy === 'allow' || undefined}
          >
            <span>{busy === 'allow' ? t('consent.sending') : t('consent.allow')}</span>
          </button>
          <button
            type="submit"
            name="decision"
            value="deny"
            className="auth-button auth-button-outlined"
            disabled={busy !== null}
            aria-busy={busy === 'deny' || undefined}
          >
            <span>{busy === 'deny' ? t('consent.sending') : t('consent.deny')}</span>
          </button>
        </div>
      </form>
    </AuthLayout>
  );
}
