import { OAuthRequestError } from '../../../lib/oidc';
import type { LoginInput } from './login';

/** What the hosted sign-in page learns of the application's sign-in request. */
export interface HostedSignInDetails {
  realm: string;
  tenantId?: string;
  prompt: string;
  clientId: string | null;
  clientName: string | null;
  loginHint: string | null;
  uiLocales: string | null;
}

const base = (realm: string, uid: string) =>
  `/login-actions/${encodeURIComponent(realm)}/${encodeURIComponent(uid)}`;

export async function fetchHostedSignIn(realm: string, uid: string): Promise<HostedSignInDetails> {
  const response = await fetch(`${base(realm, uid)}/details`, { credentials: 'same-origin' });
  if (!response.ok) throw new OAuthRequestError('invalid_request', response.statusText);
  return (await response.json()) as HostedSignInDetails;
}

/** Where the browser goes next (back to the provider), or the step's refusal as an error. */
async function goOn(response: Response) {
  const body = (await response.json().catch(() => ({}))) as {
    redirectTo?: string;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !body.redirectTo) {
    throw new OAuthRequestError(
      body.error ?? `http_${response.status}`,
      body.error_description ?? response.statusText,
    );
  }
  window.location.assign(body.redirectTo);
}

/**
 * The password step of an application's sign-in: a form post, as the identity provider's
 * other endpoints take, answered with where the browser goes next (back to the provider,
 * which sends it to the application with a code).
 */
export async function submitHostedSignIn(realm: string, uid: string, input: LoginInput) {
  const response = await fetch(`${base(realm, uid)}/login`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: input.email,
      password: input.password,
      remember: String(input.remember),
    }),
  });
  await goOn(response);
}

/**
 * The Google step instead: the ID token Google Identity Services handed the page, which the
 * server checks as the console's Google sign-in does; answered like the password step.
 */
export async function submitHostedGoogleSignIn(realm: string, uid: string, credential: string) {
  const response = await fetch(`${base(realm, uid)}/google`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ credential }),
  });
  await goOn(response);
}
