import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database';
import { saveSignInStep, takeSignInStep } from '../../identity/second-factor/sign-in-steps';

type Executor = Pick<Database, 'execute'>;

/**
 * The nonce of one Google sign-in (OpenID Connect Core §3.1.2.1, §15.5.2): the sign-in screen
 * asks for one before it shows Google's button and hands it to Google Identity Services,
 * which puts it in the ID token. It is kept server-side with the browser it was given to
 * (the hash of the browser-id cookie) for five minutes, and taken when a credential names it:
 * a credential is accepted once, from that browser, and one made for another sign-in, or
 * without a nonce, is refused.
 */
const keyOf = (nonce: string) => `google-nonce:${nonce}`;

export async function issueGoogleNonce(
  db: Executor,
  input: { tenantId: string; browserHash: string },
): Promise<string> {
  const nonce = randomBytes(32).toString('base64url');
  await saveSignInStep(db, {
    key: keyOf(nonce),
    tenantId: input.tenantId,
    userId: null,
    kind: 'google-nonce',
    data: { browserHash: input.browserHash },
  });
  return nonce;
}

/** Uses up the credential's nonce; whether it was this tenant's, for this browser, and live. */
export async function takeGoogleNonce(
  db: Executor,
  input: { tenantId: string; nonce: string | undefined; browserHash: string | null },
): Promise<boolean> {
  if (!input.nonce || !input.browserHash) return false;
  const step = await takeSignInStep(db, {
    key: keyOf(input.nonce),
    tenantId: input.tenantId,
    kind: 'google-nonce',
  });
  return step?.data['browserHash'] === input.browserHash;
}
