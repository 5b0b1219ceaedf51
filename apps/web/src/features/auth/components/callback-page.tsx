import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoScriptNote } from '../ui/no-script-note';
import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { finishConsoleSignIn } from '../../../lib/code-flow';
import { clearConsoleSignInCookie, readConsoleSignInCookie } from '../../../lib/console-sign-in';
import { links } from '../../../lib/paths';
import { getSession, saveTokens } from '../../../lib/session';
import { AuthLayout } from '../ui/auth-layout';
import { Alert, Progress } from '../ui/controls';

/** Why the sign-in could not be finished: refused, or no sign-in in progress (expired). */
class CallbackFailure extends Error {
  constructor(
    readonly reason: 'refused' | 'expired',
    description = '',
  ) {
    super(description);
  }
}

/**
 * The code exchange, once per callback address: a code works once, and StrictMode runs an
 * effect twice. Answers the landing page.
 */
let exchange: { callback: string; landing: Promise<string> } | undefined;

async function finishSignIn(): Promise<string> {
  const callback = new URL(window.location.href);
  const refused = callback.searchParams.get('error');
  if (refused) {
    throw new CallbackFailure('refused', callback.searchParams.get('error_description') ?? refused);
  }
  // The cookie lasts ten minutes: without it, the sign-in has expired (or began elsewhere).
  const signIn = readConsoleSignInCookie();
  if (!signIn) throw new CallbackFailure('expired');
  try {
    saveTokens(await finishConsoleSignIn(signIn, callback), signIn.remember);
  } finally {
    clearConsoleSignInCookie();
  }
  const session = getSession();
  if (!session) throw new CallbackFailure('refused', 'No token');
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
    const callback = window.location.href;
    if (exchange?.callback !== callback) exchange = { callback, landing: finishSignIn() };
    exchange.landing.then(
      (landing) => window.location.replace(landing),
      (error: unknown) =>
        setFailure(
          error instanceof CallbackFailure && error.reason === 'expired'
            ? t('signInSteps.errors.expired')
            : t('signIn.authFailed', {
                description: error instanceof Error ? error.message : String(error),
              }),
        ),
    );
  }, [t]);

  return (
    <AuthLayout title={t('signIn.title')}>
      {failure === null ? (
        <>
          <Progress label={t('signIn.submitting')} />
          <p className="auth-text">{t('signIn.submitting')}</p>
          <NoScriptNote text={t('signIn.needsScript')} />
        </>
      ) : (
        <>
          <Alert severity="error">{failure}</Alert>
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
