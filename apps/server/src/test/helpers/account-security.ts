import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog } from '../../db/schema/audit';
import { currentTotpCode } from '../../identity/second-factor/totp';
import { api, signIn, type TenantFixture } from '../fixtures';
import { TEST_PASSWORD, type TestServer } from '../harness';

/** One API call with a JSON body; answers the status and the parsed body (or null). */
export async function call<T = Record<string, unknown>>(
  server: TestServer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T & ProblemBody }> {
  const response = await api(server, path, token, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T & ProblemBody };
}

export interface ProblemBody {
  code?: string;
  fields?: Record<string, { code: string }>;
}

/** Another sign-in of the tenant's admin: a second session with its own tokens. */
export const signInAgain = (server: TestServer, tenant: TenantFixture, password = TEST_PASSWORD) =>
  signIn(server, tenant.name, tenant.adminEmail, password);

/** The session id an access token carries. */
/**
 * Sets up and confirms an authenticator app through the account routes, in a session that may
 * (a recent sign-in); answers its secret and the recovery codes.
 */
export async function enrolTotpThroughAccount(server: TestServer, token: string) {
  const setup = await call<{ data: { secret: string } }>(
    server,
    token,
    'POST',
    '/account/mfa/totp/setup',
  );
  expect(setup.status).toBe(200);
  const { secret } = setup.body.data;
  const confirm = await call<{ data: { recoveryCodes: string[] } }>(
    server,
    token,
    'POST',
    '/account/mfa/totp/confirm',
    { code: currentTotpCode(secret) },
  );
  expect(confirm.status).toBe(200);
  return { secret, recoveryCodes: confirm.body.data.recoveryCodes };
}

export const sessionIdOf = (accessToken: string) =>
  (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sid: string })
    .sid;

/** The audit entries of changes to a user, newest last. */
export async function auditOfUser(server: TestServer, tenantId: string, userId: string) {
  return server.database.db
    .select({ actorId: auditLog.actorId, action: auditLog.action, after: auditLog.after })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.tenantId, tenantId),
        eq(auditLog.entity, 'users'),
        eq(auditLog.entityId, userId),
      ),
    )
    .orderBy(auditLog.createdAt);
}

export async function setMfaPolicy(server: TestServer, tenantId: string, policy: string) {
  await server.database.db.execute(
    sql`update tenants set mfa_policy = ${policy} where id = ${tenantId}`,
  );
}

/** The origin a browser on the tenant's own domain sends (the test server's port). */
export const tenantOrigin = (server: TestServer, tenant: TenantFixture) =>
  `http://${tenant.domain}:${new URL(server.url).port}`;

/**
 * A software authenticator: a P-256 key made with Node's crypto, and the attestation a
 * browser would hand over for it ('none' format, CBOR from @simplewebauthn's own helpers).
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  /** The COSE form of the public key (EC2, ES256, P-256). */
  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  /** The registration response to `options` (as the server made them) from a page at `origin`. */
  attest(options: { challenge: string; rp: { id: string } }, origin: string) {
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin }),
    );
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      createHash('sha256').update(options.rp.id).digest(),
      // User present, user verified, attested credential data included.
      Buffer.from([0x01 | 0x04 | 0x40]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      length,
      this.credentialId,
      this.cosePublicKey(),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    const id = this.credentialId.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientData.toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal', 'not-a-transport'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Signs data as the authenticator would (for a sign-in's assertion). */
  sign(data: Buffer): Buffer {
    return sign('sha256', data, this.keys.privateKey);
  }
}
