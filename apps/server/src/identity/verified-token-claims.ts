import { isUuid } from '@tc/contract/text';
import type { SigningKeys } from './signing-keys';

/** What the guard needs of an access token once its signature and expiry are checked. */
export interface TokenClaims {
  userId: string;
  sessionId: string;
  tenantId: string;
  issuer: unknown;
  /**
   * The single audience the token names, undefined when it names none (the password grant's);
   * a token for several audiences or a malformed one is for no audience of ours (null).
   */
  audience: string | undefined | null;
  /** Epoch milliseconds; Infinity for a token without an expiry, which is never kept. */
  expiresAt: number;
}

const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * A token's signature and claims never change, so each token is verified once (an ES256
 * verification costs more than the rest of the guard) and its claims are kept until it
 * expires, for at most 10,000 tokens, the oldest going first. Only tokens that verified are
 * kept; whether their session, user and tenant still allow them is never kept.
 */
export function verifiedTokenClaims(keys: SigningKeys) {
  const kept = new Map<string, TokenClaims>();
  return async (token: string): Promise<TokenClaims | undefined> => {
    const hit = kept.get(token);
    if (hit) {
      if (hit.expiresAt > Date.now()) return hit;
      kept.delete(token);
      return undefined;
    }
    const payload = await keys.verify(token).catch(() => undefined);
    if (!payload) return undefined;
    const { sub, sid, tenant_id: tenantId, iss, exp, aud } = payload as Record<string, unknown>;
    if (!isUuid(sub) || !isUuid(sid) || !isUuid(tenantId)) return undefined;
    const audience = aud === undefined ? undefined : typeof aud === 'string' ? aud : null;
    const claims = { userId: sub, sessionId: sid, tenantId, issuer: iss, audience };
    // A token without an expiry is verified every time.
    if (typeof exp !== 'number') return { ...claims, expiresAt: Infinity };
    if (kept.size >= VERIFIED_TOKENS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(token, { ...claims, expiresAt: exp * 1000 });
    return kept.get(token);
  };
}
