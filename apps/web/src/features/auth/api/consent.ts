import { hostedSignInPath } from '@tc/contract/links';
import { SIGN_IN_STEP_PATHS } from '@tc/contract/sign-in-step-paths';
import { SignInStepError } from '../../../lib/sign-in-steps';

export type ConsentDecision = 'allow' | 'deny';

/**
 * Sends the consent page's answer to its sign-in request's consent step, as the form posted
 * without script does through the server; answers where the browser goes next (the
 * application, with a code or with access_denied).
 */
export async function sendConsent(
  realm: string,
  uid: string,
  decision: ConsentDecision,
): Promise<string> {
  const response = await fetch(`${hostedSignInPath(realm, uid)}${SIGN_IN_STEP_PATHS.consent}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    redirectTo?: unknown;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || typeof body.redirectTo !== 'string') {
    throw new SignInStepError(
      response.status,
      body.error ?? `http_${response.status}`,
      body.error_description ?? body.error ?? response.statusText,
    );
  }
  return body.redirectTo;
}
