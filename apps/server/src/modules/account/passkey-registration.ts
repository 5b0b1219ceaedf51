import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type RegistrationResponseJSON,
  type VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import type { Passkey } from '@tc/contract/security';
import { badRequest, conflict, notFound } from '../../http/problem';
import { withUniqueFields } from '../../http/unique-conflict';
import { notifySecurityEvent } from '../../identity/second-factor/notifications';
import { relyingPartyFor } from '../../identity/second-factor/relying-party';
import {
  credentialsOf,
  deletePasskey,
  findProfile,
  insertPasskey,
  lockUser,
  renamePasskey,
  saveStep,
  takeStep,
  tenantOf,
} from './queries';
import { recordSecurityChange } from './security-record';
import { bySelf, requireFactorLeft, type AccountDeps, type AccountUser } from './service';

/** What the enrolment's challenge is kept under between the two requests. */
const STEP_KIND = 'enrol-passkey';
const stepKey = (userId: string) => `${STEP_KIND}:${userId}`;
/** The browser's ceremony may take this long; the challenge is good once, until then. */
const CHALLENGE_SECONDS = 5 * 60;

/** The transports WebAuthn defines: whatever else a response lists is dropped, not stored. */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/**
 * The user handle of a user's passkeys: the 16 bytes of the user's id. A discoverable
 * credential hands it back at sign-in; it names no one outside this server.
 */
export const userHandleOf = (userId: string) => Buffer.from(userId.replaceAll('-', ''), 'hex');

/**
 * WebAuthn registration options for a new passkey of the signed-in user. The relying party is
 * the tenant's domain, so the console must be open on that domain (or one below it): a page
 * elsewhere could not use the passkey, and is told where to go instead.
 */
export async function passkeyRegistrationOptions(
  deps: AccountDeps,
  user: AccountUser,
  origin: string | undefined,
): Promise<Record<string, unknown>> {
  const { db } = deps;
  const [tenant, profile, existing] = await Promise.all([
    tenantOf(db, user.tenantId),
    findProfile(db, user.tenantId, user.userId),
    credentialsOf(db, user.userId),
  ]);
  if (!tenant || !profile) throw notFound('user.not_found');
  const relyingParty = relyingPartyFor(tenant, deps.config.publicUrl, origin);
  if (!relyingParty) {
    const domain = tenant.domain ?? new URL(deps.config.publicUrl).hostname;
    throw conflict('passkey.wrong_address', { domain });
  }
  const options = await generateRegistrationOptions({
    rpName: relyingParty.rpName,
    rpID: relyingParty.rpID,
    userName: profile.email,
    userID: userHandleOf(user.userId),
    userDisplayName: `${profile.firstName} ${profile.lastName}`.trim(),
    timeout: CHALLENGE_SECONDS * 1000,
    attestationType: 'none',
    // Discoverable: the hosted sign-in offers passkeys before anyone has typed a name.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    excludeCredentials: existing,
  });
  await saveStep(db, {
    key: stepKey(user.userId),
    tenantId: user.tenantId,
    userId: user.userId,
    kind: STEP_KIND,
    data: {
      challenge: options.challenge,
      rpID: relyingParty.rpID,
      origin: relyingParty.origin,
    },
    ttlSeconds: CHALLENGE_SECONDS,
  });
  return options as unknown as Record<string, unknown>;
}

/** Checks the browser's attestation against the challenge it answers; 400 for anything amiss. */
async function verified(
  response: Record<string, unknown>,
  step: Record<string, unknown>,
): Promise<NonNullable<VerifiedRegistrationResponse['registrationInfo']>> {
  const refused = () =>
    badRequest('passkey.not_verified', {}, { response: 'passkey.not_verified' });
  const { challenge, origin, rpID } = step;
  if (typeof challenge !== 'string' || typeof origin !== 'string' || typeof rpID !== 'string') {
    throw refused();
  }
  let result: VerifiedRegistrationResponse;
  try {
    result = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    // A malformed response (whatever its shape or bytes) is a refusal, never a failure.
    throw refused();
  }
  if (!result.verified) throw refused();
  return result.registrationInfo;
}

/** Verifies the attestation answering this user's latest challenge and stores the passkey. */
export async function registerPasskey(
  deps: AccountDeps,
  user: AccountUser,
  input: { name: string; response: Record<string, unknown>; acceptLanguage?: string },
): Promise<Passkey> {
  const step = await takeStep(deps.db, {
    key: stepKey(user.userId),
    userId: user.userId,
    kind: STEP_KIND,
  });
  if (!step) throw badRequest('passkey.request_expired');
  const { credential } = await verified(input.response, step);
  const transports = [...new Set(credential.transports ?? [])].filter((t) => TRANSPORTS.has(t));
  return deps.db.transaction(async (tx) => {
    await lockUser(tx, user.tenantId, user.userId);
    const passkey = await withUniqueFields(
      () =>
        insertPasskey(tx, {
          tenantId: user.tenantId,
          userId: user.userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports,
          name: input.name,
        }),
      { passkeys_tenant_credential_key: { field: 'response', code: 'passkey.already_registered' } },
    );
    await notifySecurityEvent(tx, deps.config.publicUrl, {
      userId: user.userId,
      event: 'passkeyAdded',
      acceptLanguage: input.acceptLanguage,
    });
    await recordSecurityChange(tx, {
      ...bySelf(user),
      after: { passkeyAdded: { id: passkey.id, name: passkey.name } },
    });
    return passkey;
  });
}

export async function renameOwnPasskey(
  deps: AccountDeps,
  user: AccountUser,
  input: { id: string; name: string },
): Promise<Passkey> {
  return deps.db.transaction(async (tx) => {
    const renamed = await renamePasskey(tx, user.userId, input.id, input.name);
    if (!renamed) throw notFound('passkey.not_found');
    await recordSecurityChange(tx, {
      ...bySelf(user),
      before: { passkey: { id: input.id, name: renamed.before } },
      after: { passkey: { id: input.id, name: renamed.after.name } },
    });
    return renamed.after;
  });
}

/** Removes one of the user's own passkeys, unless the policy needs it as the last factor. */
export async function removeOwnPasskey(
  deps: AccountDeps,
  user: AccountUser,
  input: { id: string; acceptLanguage?: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await lockUser(tx, user.tenantId, user.userId);
    const name = await deletePasskey(tx, user.userId, input.id);
    if (name === undefined) throw notFound('passkey.not_found');
    await requireFactorLeft(tx, user);
    await notifySecurityEvent(tx, deps.config.publicUrl, {
      userId: user.userId,
      event: 'passkeyRemoved',
      acceptLanguage: input.acceptLanguage,
    });
    await recordSecurityChange(tx, {
      ...bySelf(user),
      before: { passkey: { id: input.id, name } },
      after: { passkeyRemoved: input.id },
    });
  });
}
