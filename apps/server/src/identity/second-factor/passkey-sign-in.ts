import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/database';
import type { Realm } from '../realms';
import { relyingPartyFor, type RelyingParty } from './relying-party';
import { passkeyChallengeKey, saveSignInStep, takeSignInStep } from './sign-in-steps';

type Executor = Pick<Database, 'execute'>;

// Each character is tested once: linear time. The bounds are far above what authenticators send.
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/** The browser's assertion, as @simplewebauthn/browser's startAuthentication hands it over. */
export const passkeyAssertionSchema = z.object({
  id: base64url(1366).min(1),
  rawId: base64url(1366),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(16_384),
    authenticatorData: base64url(16_384),
    signature: base64url(2048),
    userHandle: base64url(1024).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** The relying party of a realm's passkeys, for a request from this origin (if it may use them). */
export async function realmRelyingParty(
  db: Executor,
  publicUrl: string,
  realm: Realm,
  origin: string | undefined,
): Promise<RelyingParty | undefined> {
  const result = (await db.execute(
    sql`select name, domain from tenants where id = ${realm.id}`,
  )) as unknown as { rows: Array<{ name: string; domain: string | null }> };
  const tenant = result.rows[0];
  return tenant ? relyingPartyFor(tenant, publicUrl, origin) : undefined;
}

/**
 * Request options for a discoverable credential (no list of credentials: the authenticator
 * offers the user's own), with a fresh challenge kept for this interaction only.
 */
export async function passkeySignInOptions(
  db: Executor,
  input: { tenantId: string; uid: string; rp: RelyingParty },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: input.rp.rpID,
    userVerification: 'preferred',
  });
  await saveSignInStep(db, {
    key: passkeyChallengeKey(input.uid),
    tenantId: input.tenantId,
    userId: null,
    kind: 'passkey-challenge',
    data: { challenge: options.challenge },
  });
  return options;
}

interface PasskeyRow {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** Whose passkey answered, and whether the authenticator verified the user (PIN, biometrics). */
export interface PasskeySignIn {
  userId: string;
  /**
   * The UV flag of the assertion (WebAuthn §6.1): with it the passkey is two factors (what
   * the user has and is or knows), without it only one, what the user has.
   */
  userVerified: boolean;
}

/**
 * Verifies the browser's assertion against the passkey of this tenant with its credential id,
 * and answers whose it is; undefined for anything else, alike for an unknown credential and a
 * known one that does not verify. The challenge is used up first, whatever the outcome, so an
 * assertion is never accepted twice; a counter that does not grow (a cloned authenticator, or
 * a replay racing this one) is refused when the update finds it.
 */
export async function verifyPasskeyAssertion(
  db: Executor,
  input: { tenantId: string; uid: string; rp: RelyingParty; assertion: PasskeyAssertion },
): Promise<PasskeySignIn | undefined> {
  const { tenantId, rp, assertion } = input;
  const step = await takeSignInStep(db, {
    key: passkeyChallengeKey(input.uid),
    tenantId,
    kind: 'passkey-challenge',
  });
  const challenge = step?.data['challenge'];
  if (typeof challenge !== 'string') return undefined;
  const found = (await db.execute(sql`
    select id, user_id as "userId", credential_id as "credentialId", public_key as "publicKey",
      counter, transports
    from passkeys where tenant_id = ${tenantId} and credential_id = ${assertion.id}`)) as unknown as {
    rows: PasskeyRow[];
  };
  const passkey = found.rows[0];
  if (!passkey) return undefined;
  const verification = await verifyAuthenticationResponse({
    response: assertion,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: Number(passkey.counter),
      transports: passkey.transports,
    },
    // Verification is asked for ('preferred') but not required: without it the passkey still
    // serves as the second factor after the password; the caller decides what it counts for.
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) return undefined;
  const counter = verification.authenticationInfo.newCounter;
  // The check and the write are one statement: of two assertions with the same counter, one.
  const used = (await db.execute(sql`
    update passkeys set counter = ${counter}, last_used_at = now()
    where id = ${passkey.id}
      and ((${counter}::bigint = 0 and counter = 0) or ${counter}::bigint > counter)
    returning user_id as "userId"`)) as unknown as { rows: Array<{ userId: string }> };
  const userId = used.rows[0]?.userId;
  return userId
    ? { userId, userVerified: verification.authenticationInfo.userVerified }
    : undefined;
}

/** Whose passkey answered, as `verifyPasskeyAssertion`, for a caller to whom any answer is one factor. */
export async function verifyPasskeySignIn(
  db: Executor,
  input: { tenantId: string; uid: string; rp: RelyingParty; assertion: PasskeyAssertion },
): Promise<string | undefined> {
  return (await verifyPasskeyAssertion(db, input))?.userId;
}
