import { useEffect, useRef, useState } from 'react';
import type { GoogleNonce } from '@tc/contract/google';
import { useTranslation } from 'react-i18next';
import { useAuthPage } from '../auth-page-context';
import { Alert } from '../ui/controls';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: {
        client_id: string;
        nonce: string;
        callback: (r: { credential: string }) => void;
      }): void;
      renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
    };
  };
}
declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

const SCRIPT = 'https://accounts.google.com/gsi/client';
let loading: Promise<void> | null = null;
function loadScript(): Promise<void> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('Google script failed to load'));
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * The nonce of the next Google sign-in in this browser (POST /auth/google/nonce): Google puts
 * it in the ID token, and the server takes a credential only with a nonce it gave this
 * browser, once (OpenID Connect Core §15.5.2).
 */
async function googleNonce(tenantId: string): Promise<string> {
  const response = await fetch('/api/v1.0/auth/google/nonce', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'tenant-id': tenantId },
  });
  if (!response.ok) throw new Error(`Google nonce refused: ${response.status}`);
  return ((await response.json()) as GoogleNonce).nonce;
}

/**
 * Google Identity Services button; shown only when the page's tenant carries the
 * server's client id (none for the master realm or when Google is off), so the console needs
 * no build-time setting. The ID token goes to the sign-in's Google step (useGoogleSignIn).
 * Each credential uses its nonce up, so the button is set up again with a new one after it.
 */
export function GoogleButton({
  text,
  onCredential,
}: {
  text: 'signin_with' | 'signup_with';
  onCredential: (credential: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const tenant = useAuthPage().state.tenant;
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);
  const clientId = tenant?.googleEnabled ? tenant.googleClientId : null;
  const tenantId = tenant?.id;

  useEffect(() => {
    callback.current = onCredential;
  });

  useEffect(() => {
    if (!clientId || !tenantId) return;
    let active = true;
    Promise.all([loadScript(), googleNonce(tenantId)])
      .then(([, nonce]) => {
        const parent = ref.current;
        if (!active || !parent || !window.google) return;
        window.google.accounts.id.initialize({
          client_id: clientId,
          nonce,
          callback: (response) => {
            setRound((n) => n + 1);
            callback.current(response.credential);
          },
        });
        window.google.accounts.id.renderButton(parent, {
          text,
          width: 320,
          locale: i18n.resolvedLanguage ?? 'en',
        });
      })
      .catch(() => setFailed(true));
    return () => {
      active = false;
    };
  }, [clientId, tenantId, text, i18n.resolvedLanguage, round]);

  if (!clientId) return null;
  return (
    <div className="auth-google">
      <div ref={ref} />
      {failed ? <Alert severity="error">{t('auth.googleFailed')}</Alert> : null}
    </div>
  );
}
