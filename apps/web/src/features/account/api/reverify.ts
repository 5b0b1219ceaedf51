import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { accountRoutes } from '@tc/contract/routes/account';
import type { ReverifyRequest } from '@tc/contract/security';
import { callRoute } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';

/*
 * Re-verification (docs/decisions/0018-recent-proof-for-account-security.md): the server
 * refuses a change of the sign-in security with 403 auth.reverification_required when the
 * session's last proof is too old. The change is then held, the dialog asks for a proof and
 * the change is sent again, so what the user was doing (a passkey's name, a code) is kept.
 */

export const isReverificationRequired = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 403 &&
  error.problem?.code === 'auth.reverification_required';

/** Proves the user with a password or a code; a wrong one is counted like a sign-in. */
export const reverify = (proof: ReverifyRequest) =>
  callRoute(accountRoutes.reverify, { body: proof });

/** Proves the user with one of their passkeys: the server's challenge, the browser's prompt. */
export async function reverifyWithPasskey() {
  const { options } = await callRoute(accountRoutes.reverifyOptions);
  // The WebAuthn helper loads when a passkey is used: most re-verifications type a password.
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return reverify({ passkey: response as unknown as Record<string, unknown> });
}

/** A change waiting for the user's proof: settled when the dialog succeeds or is closed. */
export interface ProofRequest {
  proven: () => void;
  cancelled: () => void;
}

let waiting: ProofRequest | null = null;
const listeners = new Set<() => void>();
const announce = () => listeners.forEach((listener) => listener());

/** The dialog's subscription (useSyncExternalStore): the change waiting for a proof, if any. */
export const proofRequests = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      // The page left with a change still held: nobody can answer it any more.
      if (listeners.size === 0) waiting?.cancelled();
    };
  },
  current: () => waiting,
};

function askForProof(): Promise<boolean> {
  // Without a dialog on the page, nobody could answer: the refusal stands as it came.
  if (listeners.size === 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (proven: boolean) => () => {
      waiting = null;
      announce();
      resolve(proven);
    };
    waiting = { proven: settle(true), cancelled: settle(false) };
    announce();
  });
}

/**
 * Sends a security change; when the server asks for a recent proof, asks the user for one
 * and sends it again. Closing the dialog leaves the refusal as the change's failure.
 */
export async function withRecentProof<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!isReverificationRequired(error) || !(await askForProof())) throw error;
    return send();
  }
}
