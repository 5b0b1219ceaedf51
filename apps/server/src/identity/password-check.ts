import type { Config } from '../config';
import type { Database } from '../db/database';
import { enqueueLoginFailed } from '../webhooks/outbox';
import {
  attemptKey,
  failLoginAttempt,
  passLoginAttempt,
  startLoginAttempt,
  withdrawLoginAttempt,
  type LoginAttempt,
} from './brute-force';
import { invalidCredentials, OAuthError } from './oauth-error';
import type { ClientSecretGuard } from './openid/client-secret';
import { requirePasswordClient } from './password-clients';
import { verifyPassword } from './passwords';
import { principalInRealm, type Principal } from './principal';

/** Why an account whose credentials are right may still not sign in, if it may not. */
export function accountRefusal(principal: Principal): OAuthError | undefined {
  if (!principal.userActive) return new OAuthError(400, 'invalid_grant', 'Account disabled');
  if (!principal.emailVerified) {
    return new OAuthError(400, 'invalid_grant', 'Account is not fully set up');
  }
  return undefined;
}

/**
 * Checks a user's password under the realm's rules: the password grant's and the hosted
 * sign-in page's one way in. Unknown, locked and wrong all do the same work and answer
 * alike: the attempt is counted (under a derived key when no account has the name) and one
 * hash is computed. A wrong password settles it as a failure; a right one leaves it pending
 * for the caller to settle: passed once the sign-in is complete (second factor included),
 * withdrawn while the second factor is still to come.
 */
export function passwordCheck({
  db,
  config,
  clientSecrets,
  realmId,
}: {
  db: Database;
  config: Config;
  clientSecrets: ClientSecretGuard;
  /** The realm's tenant id; refuses an unknown realm. */
  realmId: (name: string) => Promise<string>;
}) {
  return async function checkPassword(input: {
    realm: string;
    clientId: string | undefined;
    clientSecret?: string | undefined;
    username: string | undefined;
    password: string | undefined;
    /** Whether the client may use the password grant; the hosted page skips this check. */
    checkClient?: boolean;
    /** The client's address, which wrong client secrets are throttled by. */
    source?: string | undefined;
  }): Promise<{ principal: Principal; attempt: LoginAttempt }> {
    const checkClient = input.checkClient ?? true;
    // One round trip finds the realm and the user; the separate realm check remains for the
    // answers that need no user (unknown realm, no username).
    const found = input.username
      ? await principalInRealm(db, input.realm, input.username)
      : undefined;
    const tenantId = found?.tenantId ?? (await realmId(input.realm));
    // The client is refused before the attempt counts: a wrong client guesses nothing.
    if (checkClient) {
      await requirePasswordClient(
        { db, clientSecrets },
        {
          tenantId,
          clientId: input.clientId,
          clientSecret: input.clientSecret,
          source: input.source,
        },
      );
    }
    const principal = found?.principal;
    const password = input.password ?? '';
    const key = attemptKey(tenantId, principal?.userId, input.username ?? '');
    const attempt = await startLoginAttempt(db, config.bruteForce, { id: key, tenantId });
    const checked = attempt.allowed && principal?.passwordHash ? principal.passwordHash : null;
    const right = await verifyPassword(checked, password).catch(async (error: unknown) => {
      await withdrawLoginAttempt(db, attempt);
      throw error;
    });
    if (!right || !principal) {
      await failLoginAttempt(db, config.bruteForce, attempt);
      await enqueueLoginFailed(db, {
        tenantId,
        userId: principal?.userId ?? null,
        email: principal?.email ?? null,
        locked: !attempt.allowed,
      });
      throw invalidCredentials();
    }
    const refusal = accountRefusal(principal);
    if (refusal) {
      // No second factor is asked of an account that cannot sign in: the password ends it.
      await passLoginAttempt(db, attempt);
      throw refusal;
    }
    return { principal, attempt };
  };
}
