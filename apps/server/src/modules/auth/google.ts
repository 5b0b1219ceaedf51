import type { FastifyBaseLogger } from 'fastify';
import type { TenantInfo, TokenResponse } from '@tc/contract/identity';
import type { AppContext } from '../../app-context';
import { forbidden, unauthorized } from '../../http/problem';
import type { RealmGoogleSignIn } from '../../identity/openid/hosted-google';
import type { Principal } from '../../identity/principal';
import {
  asksSecondFactor,
  mustEnrol,
  signInFacts,
} from '../../identity/second-factor/sign-in-facts';
import { identifyTenant } from '../tenants';
import { takeGoogleNonce } from './google-nonce';
import { createGoogleVerifier, googlePrincipal, type GoogleIdentity } from './google-sign-in';

/** Google sign-in, where the server has a Google client id: the console's and the hosted page's. */
export interface GoogleSignIn {
  /**
   * For API clients: our tokens for the tenant the request identified, unless the account
   * signs in with a second factor (its own, or one the tenant requires), which only the
   * sign-in page asks for.
   */
  tokens(
    tenant: TenantInfo,
    credential: string,
    log: FastifyBaseLogger,
    browserHash: string | null,
  ): Promise<TokenResponse>;
  /** The identity provider's hosted sign-in page: the account a realm's provider signs in. */
  inRealm: RealmGoogleSignIn;
}

/**
 * Google alone is one factor: an account with a second factor, or one the tenant's policy
 * requires a second factor of, gets no tokens from it here.
 */
async function refuseSecondFactorAccounts(ctx: AppContext, principal: Principal): Promise<void> {
  const facts = await signInFacts(ctx.db, principal.userId, null);
  if (asksSecondFactor(facts) || mustEnrol(facts, principal.permissions)) {
    throw forbidden('google.second_factor_required');
  }
}

/**
 * One verifier for the whole app, so Google's JWKS is fetched once and cached across requests
 * and routes; undefined when GOOGLE_CLIENT_ID is not set.
 */
export function createGoogleSignIn(ctx: AppContext): GoogleSignIn | undefined {
  const { googleClientId, googleJwksUrl, publicUrl } = ctx.config;
  if (!googleClientId) return undefined;
  const verify = createGoogleVerifier({ clientId: googleClientId, jwksUrl: googleJwksUrl });
  const publicHost = new URL(publicUrl).hostname.toLowerCase();
  /** The credential's identity, once its nonce is this browser's, of a sign-in of this tenant. */
  async function verifyForSignIn(
    tenantId: string,
    credential: string,
    log: FastifyBaseLogger,
    browserHash: string | null,
  ): Promise<GoogleIdentity> {
    const identity = await verify(credential, log);
    if (!(await takeGoogleNonce(ctx.db, { tenantId, nonce: identity.nonce, browserHash }))) {
      log.info('Google ID token without the nonce of a sign-in of this browser');
      throw unauthorized('google.sign_in_failed');
    }
    return identity;
  }

  return {
    async tokens(tenant, credential, log, browserHash) {
      const identity = await verifyForSignIn(tenant.id, credential, log, browserHash);
      const { principal } = await googlePrincipal(ctx.db, { tenant, identity });
      await refuseSecondFactorAccounts(ctx, principal);
      return ctx.tokens.issueTokens(principal);
    },
    async inRealm({ realm, credential, log, browserHash }) {
      // The tenant as the console identifies it, for the same rules (self sign-up, master).
      const tenant = await identifyTenant(ctx.db, {
        tenantIdHeader: realm.id,
        hostname: publicHost,
        publicHost,
        googleClientId,
      });
      const identity = await verifyForSignIn(tenant.id, credential, log, browserHash);
      const { principal } = await googlePrincipal(ctx.db, { tenant, identity });
      return { accountId: principal.userId, permissions: principal.permissions };
    },
  };
}
