import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { finishConsoleSignIn } from '../../../lib/code-flow';
import { clearConsoleSignInCookie, readConsoleSignInCookie } from '../../../lib/console-sign-in';
import { links } from '../../../lib/paths';
import { getSession, saveTokens } from '../../../lib/session';
import { AuthLayout } from '../ui/auth-layout';
import { Alert, Progress } from '../ui/controls';

/**
 * The code exchange, once per page: the code works once, and StrictMode runs an effect twice.
 * Answers the landing page, or the reason the sign-in could not be finished.
 */
let exchange: Promise<string> | undefined;

async function finishSignIn(): Promise<string> {
  const callback = new URL(window.location.href);
  const refused = callback.searchParams.get('error');
  if (refused) throw new Error(callback.searchParams.get('error_description') ?? refused);
  const signIn = readConsoleSignInCookie();
  if (!signIn) throw new Error('No sign-in is in progress in this browser.');
  try {
    saveTokens(await finishConsoleSignIn(signIn, callback), signIn.remember);
  } finally {
    clearConsoleSignInCookie();
  }
  const session = getSession();
  if (!session) throw new Error('The sign-in answer held no token.');
  return links.landing(session.superAdmin);
}

/**
 * Where the identity provider sends the console back with its code after a sign-in posted
 * without script: the script exchanges the code (what it needs is in the sign-in's cookie),
 * keeps the session as a sign-in with script does, and loads the console.
 */
export default function CallbackPage() {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    exchange ??= finishSignIn();
    exchange.then(
      (landing) => window.location.replace(landing),
      (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)),
    );
  }, []);

  return (
    <AuthLayout title={t('signIn.title')}>
      {failure === null ? (
        <>
          <Progress label={t('signIn.submitting')} />
          <p className="auth-text">{t('signIn.submitting')}</p>
          <noscript>
            <Alert severity="info">{t('signIn.needsScript')}</Alert>
          </noscript>
        </>
      ) : (
        <>
          <Alert severity="error">{t('signIn.authFailed', { description: failure })}</Alert>
          <p className="auth-text">
            <a className="auth-link" href={AUTH_PAGE_PATHS.signIn}>
              {t('auth.backToLogin')}
            </a>
          </p>
        </>
      )}
    </AuthLayout>
  );
}
