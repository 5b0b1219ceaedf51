import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { expect } from 'vitest';
import { SecretBox } from '../../identity/second-factor/secret-box';
import { replaceRecoveryCodes } from '../../identity/second-factor/recovery-codes';
import {
  currentTotpCode,
  startTotpEnrolment,
  useTotpCode,
} from '../../identity/second-factor/totp';
import type { TenantFixture } from '../fixtures';
import type { TestServer } from '../harness';
import { authorizationRequest, REDIRECT } from './conformance';
import { CookieJar, discover, insertClient } from './relying-party';

/** The application every test tenant signs in to on the hosted page. */
export const APP = 'spa';

export async function registerApp(server: TestServer, tenantId: string) {
  // Allowed the console API: the tests read the signed-in user back through it.
  await insertClient(server.database.db, tenantId, {
    clientId: APP,
    redirectUris: [REDIRECT],
    consoleApiAccess: true,
  });
}

/** An application's authorization request, followed to the hosted sign-in page. */
export async function openSignInPage(
  server: TestServer,
  realm: string,
  jar = new CookieJar(),
  extra: Record<string, string> = {},
) {
  const config = await discover(server, realm, APP);
  const request = await authorizationRequest(config, extra);
  const answer = await jar.fetch(request.url.href);
  const page = new URL(answer.headers.get('location') ?? '', server.url);
  expect(page.pathname).toMatch(new RegExp(`^/login-actions/${realm}/`));
  return { config, jar, request, page: page.href };
}
export type SignInPage = Awaited<ReturnType<typeof openSignInPage>>;

export interface StepAnswer {
  status: number;
  body: Record<string, unknown> & { redirectTo?: string; error?: string };
  headers: Headers;
}

/** Posts a step's form, as the sign-in page does. */
export async function postStep(
  page: SignInPage,
  path: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<StepAnswer> {
  const response = await page.jar.fetch(`${page.page}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/**
 * Posts a step's JSON body (the passkey steps), as the page's script does: a fetch of the page's
 * own origin, which the browser marks `Sec-Fetch-Site: same-origin` (an `Origin` given here
 * stands for the tenant's address the page is on, which these requests cannot name as Host).
 */
export async function postJsonStep(
  page: SignInPage,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<StepAnswer> {
  const response = await page.jar.fetch(`${page.page}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

export const passwordStep = (page: SignInPage, tenant: TenantFixture, password = tenant.password) =>
  postStep(page, '/login', { username: tenant.adminEmail, password });

/**
 * Follows a `done` step back to the application and exchanges the code; the application is
 * a third party, so a user's first sign-in allows it on the consent page on the way.
 */
export async function finishSignIn(page: SignInPage, redirectTo: string) {
  let resumed = await page.jar.fetch(redirectTo);
  const asked = new URL(resumed.headers.get('location') ?? '', page.page);
  if (asked.pathname.startsWith('/login-actions/')) {
    const allowed = await page.jar.fetch(`${asked.href}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ decision: 'allow' }),
    });
    resumed = await page.jar.fetch(((await allowed.json()) as { redirectTo: string }).redirectTo);
  }
  const callback = new URL(resumed.headers.get('location') ?? '');
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  return oidc.authorizationCodeGrant(page.config, callback, {
    pkceCodeVerifier: page.request.verifier,
    expectedState: page.request.state,
    expectedNonce: page.request.nonce,
  });
}

/** The tenant's second-factor policy, set as its administrators would. */
export async function setMfaPolicy(server: TestServer, tenantId: string, policy: string) {
  await server.database.db.execute(
    sql`update tenants set mfa_policy = ${policy} where id = ${tenantId}`,
  );
}

/** The code of the authenticator app `steps` time steps from now (one step: 30 s). */
export const totpCode = (secret: string, steps = 0) =>
  currentTotpCode(secret, Date.now() + steps * 30_000);

/**
 * Gives a user a confirmed authenticator app, as the account page does: the secret, then its
 * first code. The code of the step before is used to confirm, so the current step's and the
 * next one's are left for the test.
 */
export async function enrolTotp(server: TestServer, user: { id: string; tenantId: string }) {
  const db = server.database.db;
  const [row] = (
    (await db.execute(sql`select email from users where id = ${user.id}`)) as unknown as {
      rows: Array<{ email: string }>;
    }
  ).rows;
  // The server's own key (the harness sets MFA_ENCRYPTION_KEY), so it opens what this seals.
  const box = await SecretBox.open(server.config);
  const enrolment = await startTotpEnrolment(db, box, { ...user, email: row!.email }, 'Test');
  const secret = enrolment!.secret;
  expect(await useTotpCode(db, box, user, totpCode(secret, -1), false)).toBe(true);
  return { secret, recoveryCodes: await replaceRecoveryCodes(db, user) };
}

/** A user's passkey, made by a software authenticator: a P-256 key of Node's crypto. */
export class TestPasskey {
  readonly credentialId = randomBytes(16).toString('base64url');
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  /** The COSE form of the public key (EC2, ES256, P-256), as registration stores it. */
  cosePublicKey(): Buffer {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return Buffer.from(
      isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      ),
    );
  }

  /** Stores it for a user, as a registration would. */
  async register(server: TestServer, owner: { tenantId: string; userId: string }, counter = 0) {
    await server.database.db.execute(sql`
      insert into passkeys (tenant_id, user_id, credential_id, public_key, counter, name)
      values (${owner.tenantId}, ${owner.userId}, ${this.credentialId},
        ${this.cosePublicKey().toString('base64url')}, ${counter}, 'Test key')`);
  }

  /**
   * The assertion a browser hands over for `challenge` on a page at `origin`: authenticator
   * data (the relying party's hash, user present and — unless `userVerified` is false —
   * verified, the counter), the client data and the signature over both.
   */
  assert(input: {
    challenge: string;
    rpId: string;
    origin: string;
    counter: number;
    userVerified?: boolean;
  }) {
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: input.challenge,
        origin: input.origin,
        crossOrigin: false,
      }),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(input.counter);
    const authData = Buffer.concat([
      createHash('sha256').update(input.rpId).digest(),
      // Flags (WebAuthn §6.1): UP (bit 0) always, UV (bit 2) when the user was verified.
      Buffer.from([input.userVerified === false ? 0x01 : 0x01 | 0x04]),
      counter,
    ]);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, this.keys.privateKey).toString('base64url'),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
