import type { FastifyBaseLogger } from 'fastify';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { TenantInfo } from '@tc/contract/identity';
import { MEMBER_ROLE } from '@tc/contract/permissions';
import { builtInRoleId } from '../roles';
import type { Database } from '../../db/database';
import { uniqueViolation } from '../../db/errors';
import { forbidden, unauthorized } from '../../http/problem';
import { principalByEmail, type Principal } from '../../identity/principal';
import { recordChange } from '../audit';
import { findMasterRealm } from '../tenants';
import { findUserRow, insertUser } from '../users';
import { markTenantUserEmailVerified } from './queries';
import { claimUnverifiedAccount } from './service';

/** The console's wording for any refused Google sign-in, kept from the earlier client. */

// https://developers.google.com/identity/gsi/web/guides/verify-google-id-token
const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** A verified Google account: the address Google vouches for and the names it gives. */
export interface GoogleIdentity {
  /** The sign-in's nonce Google was handed, which the ID token carries (google-nonce.ts). */
  nonce: string | undefined;
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
}

export type GoogleVerifier = (
  credential: string,
  log: FastifyBaseLogger,
) => Promise<GoogleIdentity>;

// Failures that say the token is bad; anything else (JWKS down, timeout) is ours to look at.
const TOKEN_FAULTS = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
]);

const NAME_MAX = 100;
// Control characters and unpaired surrogates of a claim never reach a name (PostgreSQL refuses NUL).
const UNSTORABLE = /[\p{Cc}\p{Cs}]/gu;
const text = (value: unknown) =>
  typeof value === 'string' ? value.trim().slice(0, NAME_MAX).replace(UNSTORABLE, ' ').trim() : '';

/** Names for a new user: given/family name, else the full name split once, else the mailbox. */
function namesOf(payload: JWTPayload, email: string): { firstName: string; lastName: string } {
  const given = text(payload.given_name);
  const family = text(payload.family_name);
  if (given || family) return { firstName: given || family, lastName: given ? family : '' };
  const [first = '', ...rest] = text(payload.name).split(/\s+/);
  if (first) return { firstName: first, lastName: rest.join(' ') };
  return { firstName: email.split('@')[0]!.slice(0, NAME_MAX), lastName: '' };
}

/**
 * Verifies Google ID tokens: signature against Google's JWKS (fetched once and cached by jose,
 * refetched when a new key id shows up), issuer, audience = our client id, expiry, and a
 * verified e-mail address. Every refusal is the same 401, so a caller learns nothing more.
 */
export function createGoogleVerifier(options: {
  clientId: string;
  jwksUrl: string;
}): GoogleVerifier {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), {
    timeoutDuration: 5000,
    cooldownDuration: 30_000,
    cacheMaxAge: 6 * 3600 * 1000,
  });
  return async (credential, log) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(credential, jwks, {
        issuer: GOOGLE_ISSUERS,
        audience: options.clientId,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat', 'sub'],
        clockTolerance: 30,
      }));
    } catch (error) {
      const code = error instanceof errors.JOSEError ? error.code : undefined;
      if (code && TOKEN_FAULTS.has(code)) log.info({ code }, 'Google ID token refused');
      else log.warn({ err: error }, 'Google ID token could not be verified');
      throw unauthorized('google.sign_in_failed');
    }
    // Google sends a boolean; some older tokens carry the string "true".
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
    if (
      !verified ||
      !/^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+$/u.test(email) ||
      email.length > 254
    ) {
      log.info('Google ID token without a verified e-mail address');
      throw unauthorized('google.sign_in_failed');
    }
    const nonce = typeof payload.nonce === 'string' ? payload.nonce : undefined;
    return { nonce, subject: payload.sub!, email, ...namesOf(payload, email) };
  };
}

/** Self sign-up through Google: a Member without a password, audited as created by itself. */
async function signUp(db: Database, tenantId: string, identity: GoogleIdentity): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const memberRoleId = await builtInRoleId(tx, tenantId, MEMBER_ROLE);
      if (!memberRoleId) throw forbidden('google.no_new_members');
      const id = await insertUser(tx, {
        tenantId,
        email: identity.email,
        firstName: identity.firstName,
        lastName: identity.lastName,
        roleId: memberRoleId,
      });
      await markTenantUserEmailVerified(tx, tenantId, id);
      await recordChange(tx, {
        tenantId,
        actorId: id,
        entity: 'users',
        action: 'create',
        entityId: id,
        after: await findUserRow(tx, tenantId, id),
      });
    });
  } catch (error) {
    // A concurrent first sign-in created the same user: sign in to that one.
    if (uniqueViolation(error) !== 'users_tenant_email_key') throw error;
  }
}

/** The account a Google sign-in signs in. */
export interface GoogleSignedIn {
  /** Its address now counts as verified: Google vouches for it. */
  principal: Principal;
}

/**
 * The account a verified Google account signs in to in the identified tenant (never with a
 * password), signed up first when the tenant allows self sign-up. The console's sign-in and
 * the identity provider's hosted page both sign in through these rules.
 *
 * The master realm is refused outright: super administrators are few, have the widest reach,
 * and sign in with their password only; delegating that to any Google account that claims
 * the address would widen the attack surface for no real gain.
 */
export async function googlePrincipal(
  db: Database,
  input: { tenant: TenantInfo; identity: GoogleIdentity },
): Promise<GoogleSignedIn> {
  const { tenant, identity } = input;
  const master = await findMasterRealm(db);
  if (master?.id === tenant.id) {
    throw forbidden('google.super_admin');
  }
  let principal = await principalByEmail(db, tenant.id, identity.email);
  if (!principal) {
    if (!tenant.signupEnabled) {
      throw forbidden('google.no_account', { email: identity.email });
    }
    await signUp(db, tenant.id, identity);
    principal = await principalByEmail(db, tenant.id, identity.email);
    if (!principal) throw unauthorized('google.sign_in_failed');
  }
  if (!principal.userActive) {
    throw forbidden('google.account_disabled');
  }
  // Google has proved the address. An unverified account is claimed: whoever signed it up
  // may not be the mailbox's owner, so their password and sessions do not survive.
  if (!principal.emailVerified) {
    await claimUnverifiedAccount(db, principal);
  }
  return { principal: { ...principal, emailVerified: true } };
}
