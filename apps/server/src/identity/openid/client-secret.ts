import { timingSafeEqual } from 'node:crypto';
import { SharedLimit, type HitCounter } from '../../http/hit-counter';
import { hashToken } from '../sessions';

/**
 * A client secret is 32 random bytes: a guess is hopeless, so one SHA-256 digest stores it
 * safely — a slow password hash would only make every client-credentials grant slow.
 */
export const digestClientSecret = hashToken;

/** What a presented client secret earned: accepted, refused, or refused and throttled. */
export type ClientSecretCheck =
  { outcome: 'right' } | { outcome: 'wrong' } | { outcome: 'throttled'; retryAfterSeconds: number };

export type ClientSecretGuard = ReturnType<typeof clientSecretGuard>;

/** What one client secret presented at one endpoint is checked against. */
export interface PresentedClientSecret {
  tenantId: string;
  clientId: string;
  storedDigest: string | undefined;
  presented: string;
  /** The client's address (as TRUST_PROXY reads it); undefined when none is known. */
  source: string | undefined;
}

/**
 * Wrong client secrets, throttled per source: the client's address and the client. A right
 * secret is always accepted and counts nothing, however many wrong ones anyone sent: with
 * 256 random bits there is nothing to protect by refusing it, and a lock per client would let
 * anyone who knows a client_id stop that application (RFC 9700 §4.16 asks that a client's
 * authentication be usable by no one else; OWASP's lockout guidance warns of exactly this
 * denial of service). Counting per address and client keeps one guesser to their own budget.
 */
export function clientSecretGuard(counter: HitCounter, wrongPerMinute: number) {
  const wrongSecrets = new SharedLimit(counter, 'client-secret-wrong', wrongPerMinute, 60_000);
  return {
    async check(attempt: PresentedClientSecret): Promise<ClientSecretCheck> {
      const expected = Buffer.from(attempt.storedDigest ?? '');
      const actual = Buffer.from(digestClientSecret(attempt.presented));
      if (expected.length === actual.length && timingSafeEqual(expected, actual)) {
        return { outcome: 'right' };
      }
      const source = `${attempt.tenantId}\n${attempt.clientId}\n${attempt.source ?? 'unknown'}`;
      const throttled = await wrongSecrets.take(source);
      return throttled ? { outcome: 'throttled', ...throttled } : { outcome: 'wrong' };
    },
  };
}

/** The words of a throttled client's answer (RFC 6749 §5.2 leaves them to the server). */
export const throttledDescription = (seconds: number) =>
  `Too many wrong client secrets from this address. Try again in ${seconds} seconds.`;
