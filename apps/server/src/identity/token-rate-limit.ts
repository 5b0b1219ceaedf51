import type { Config } from '../config';
import { SharedLimit, type HitCounter } from '../http/hit-counter';
import { OAuthError } from './oauth-error';

/**
 * Password grants per client address and per realm, counted across every server process.
 * Each grant costs a deliberately slow hash: without a limit one client's flood of guesses
 * at unknown names queues every real sign-in behind it. The address is counted first, so a
 * flood of made-up realm names stops there.
 */
export function passwordGrantLimits(counter: HitCounter, config: Config) {
  const { perAddress, perRealm } = config.tokenRateLimit;
  const byAddress = new SharedLimit(counter, 'password-grant-address', perAddress, 60_000);
  const byRealm = new SharedLimit(counter, 'password-grant-realm', perRealm, 60_000);
  return {
    async require(realm: string, clientAddress: string): Promise<void> {
      const limited =
        (await byAddress.take(clientAddress)) ?? (await byRealm.take(realm.toLowerCase()));
      if (!limited) return;
      const seconds = limited.retryAfterSeconds;
      throw new OAuthError(
        429,
        'slow_down',
        `Too many sign-in attempts. Try again in ${seconds} seconds.`,
        seconds,
      );
    },
  };
}
