import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passkey, SecondFactors } from '@tc/contract/security';
import { passkeys } from '../../db/schema/second-factors';
import { createSignedInTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  SoftwareAuthenticator,
  auditOfUser,
  call,
  setMfaPolicy,
  tenantOrigin,
} from '../../test/helpers/account-security';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100' });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

type Signed = TenantFixture & { token: string };
type Options = {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string };
  excludeCredentials?: Array<{ id: string }>;
  authenticatorSelection: Record<string, unknown>;
};

/** Registration options as the console on the tenant's own address asks for them. */
async function optionsFor(tenant: Signed, origin = tenantOrigin(server, tenant)) {
  const answer = await call<{ data: { options: Options } }>(
    server,
    tenant.token,
    'POST',
    '/account/passkeys/options',
    undefined,
    { origin },
  );
  expect(answer.status).toBe(200);
  return answer.body.data.options;
}

/** A passkey registered end to end: options, the authenticator's attestation, registration. */
async function register(
  tenant: Signed,
  name = 'Laptop',
  authenticator = new SoftwareAuthenticator(),
) {
  const options = await optionsFor(tenant);
  const response = authenticator.attest(options, tenantOrigin(server, tenant));
  return call<{ data: Passkey }>(server, tenant.token, 'POST', '/account/passkeys', {
    name,
    response,
  });
}

const factorsOf = async (tenant: Signed) =>
  (await call<{ data: SecondFactors }>(server, tenant.token, 'GET', '/account/mfa')).body.data;

describe('passkey registration', () => {
  it('offers discoverable-credential options for the tenant domain and stores the verified passkey', async () => {
    const tenant = await createSignedInTenant(server);
    const options = await optionsFor(tenant);
    expect(options.rp).toEqual({ id: tenant.domain, name: tenant.name });
    expect(options.user.name).toBe(tenant.adminEmail);
    expect(Buffer.from(options.user.id, 'base64url').toString('hex')).toBe(
      tenant.adminId.replaceAll('-', ''),
    );
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'preferred',
    });
    expect(options.excludeCredentials).toEqual([]);

    const authenticator = new SoftwareAuthenticator();
    const response = authenticator.attest(options, tenantOrigin(server, tenant));
    const created = await call<{ data: Passkey }>(
      server,
      tenant.token,
      'POST',
      '/account/passkeys',
      {
        name: 'Laptop',
        response,
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    const [row] = await server.database.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.id, created.body.data.id));
    expect(row).toMatchObject({
      tenantId: tenant.tenantId,
      userId: tenant.adminId,
      credentialId: authenticator.credentialId.toString('base64url'),
      counter: 0,
      transports: ['internal'],
    });
    expect(row!.publicKey).toMatch(/^[\w-]+$/);
    expect((await factorsOf(tenant)).passkeys).toEqual([created.body.data]);

    // The challenge was good once.
    const replay = await call(server, tenant.token, 'POST', '/account/passkeys', {
      name: 'Again',
      response,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('passkey.request_expired');

    // The same authenticator again: excluded in the options, refused if sent anyway.
    const next = await optionsFor(tenant);
    expect(next.excludeCredentials?.map((c) => c.id)).toEqual([response.id]);
    const duplicate = await call(server, tenant.token, 'POST', '/account/passkeys', {
      name: 'Twice',
      response: authenticator.attest(next, tenantOrigin(server, tenant)),
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('passkey.already_registered');

    const mail = await smtp.waitFor(
      (m) => m.to.includes(tenant.adminEmail) && /passkey was added/.test(m.subject),
    );
    expect(mail.text).not.toContain(row!.publicKey);
    const audit = await auditOfUser(server, tenant.tenantId, tenant.adminId);
    expect(audit.at(-1)!.after).toEqual({
      passkeyAdded: { id: created.body.data.id, name: 'Laptop' },
    });
  });

  it('refuses options off the tenant domain with a 409 that names the domain', async () => {
    const tenant = await createSignedInTenant(server);
    for (const origin of [server.url, 'https://evil.example', 'null']) {
      const answer = await call(
        server,
        tenant.token,
        'POST',
        '/account/passkeys/options',
        undefined,
        {
          origin,
        },
      );
      expect(answer.status, origin).toBe(409);
      expect(answer.body.code).toBe('passkey.wrong_address');
      expect(JSON.stringify(answer.body)).toContain(tenant.domain);
    }
    // A page below the tenant's domain is on it.
    const below = `http://console.${tenant.domain}:${new URL(server.url).port}`;
    expect((await optionsFor(tenant, below)).rp.id).toBe(tenant.domain);
  });

  it('refuses an attestation of another challenge, origin or relying party, an expired request and junk', async () => {
    const tenant = await createSignedInTenant(server);
    const origin = tenantOrigin(server, tenant);
    const authenticator = new SoftwareAuthenticator();
    const send = (response: unknown, name: unknown = 'Key') =>
      call(server, tenant.token, 'POST', '/account/passkeys', { name, response });

    const noOptions = await send(
      authenticator.attest({ challenge: 'abc', rp: { id: tenant.domain } }, origin),
    );
    expect(noOptions.body.code).toBe('passkey.request_expired');

    const forged: Array<(o: Options) => unknown> = [
      (o) => authenticator.attest({ ...o, challenge: 'b3RoZXI' }, origin),
      (o) => authenticator.attest(o, 'https://evil.example'),
      (o) => authenticator.attest({ ...o, rp: { id: 'evil.example' } }, origin),
      () => ({}),
      () => ({
        id: '\u0000',
        rawId: '\u0000',
        type: 'public-key',
        response: { clientDataJSON: '\ud800' },
      }),
      (o) => ({ ...(authenticator.attest(o, origin) as object), type: 'other' }),
    ];
    for (const make of forged) {
      const answer = await send(make(await optionsFor(tenant)));
      expect(answer.status, make.toString()).toBe(400);
      expect(answer.body.code).toBe('passkey.not_verified');
    }

    const options = await optionsFor(tenant);
    await server.database.db.execute(
      sql`update sign_in_steps set expires_at = now() - interval '1 second' where user_id = ${tenant.adminId}`,
    );
    const late = await send(authenticator.attest(options, origin));
    expect(late.body.code).toBe('passkey.request_expired');

    for (const name of ['', 'a\u0000b', 'x'.repeat(101)]) {
      const answer = await send(authenticator.attest(await optionsFor(tenant), origin), name);
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.fields ?? {})).toEqual(['name']);
    }
    expect((await factorsOf(tenant)).passkeys).toEqual([]);
  });
});

describe('own passkeys', () => {
  it("renames and removes the caller's own only; another user's is not found", async () => {
    const tenant = await createSignedInTenant(server);
    const stranger = await createSignedInTenant(server);
    const mine = (await register(tenant)).body.data;
    const theirs = (await register(stranger, 'Phone')).body.data;

    const renamed = await call<{ data: Passkey }>(
      server,
      tenant.token,
      'PUT',
      `/account/passkeys/${mine.id}`,
      {
        name: ' Work laptop ',
      },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: mine.id, name: 'Work laptop' });

    const renameTheirs = await call(server, tenant.token, 'PUT', `/account/passkeys/${theirs.id}`, {
      name: 'Mine now',
    });
    expect(renameTheirs.status).toBe(404);
    expect(renameTheirs.body.code).toBe('passkey.not_found');
    const removeTheirs = await call(
      server,
      tenant.token,
      'DELETE',
      `/account/passkeys/${theirs.id}`,
    );
    expect(removeTheirs.status).toBe(404);
    expect((await factorsOf(stranger)).passkeys).toEqual([theirs]);

    const removed = await call(server, tenant.token, 'DELETE', `/account/passkeys/${mine.id}`);
    expect(removed).toMatchObject({ status: 200, body: { data: { ok: true } } });
    expect((await factorsOf(tenant)).passkeys).toEqual([]);
    await smtp.waitFor(
      (m) => m.to.includes(tenant.adminEmail) && /passkey was removed/.test(m.subject),
    );
  });

  it("keeps the last passkey while the tenant's policy requires a second factor", async () => {
    const tenant = await createSignedInTenant(server);
    const first = (await register(tenant, 'One')).body.data;
    const second = (await register(tenant, 'Two')).body.data;
    await setMfaPolicy(server, tenant.tenantId, 'everyone');
    const removed = await call(server, tenant.token, 'DELETE', `/account/passkeys/${first.id}`);
    expect(removed.status).toBe(200);
    const last = await call(server, tenant.token, 'DELETE', `/account/passkeys/${second.id}`);
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('mfa.last_factor_required');
    expect((await factorsOf(tenant)).passkeys.map((p) => p.id)).toEqual([second.id]);
  });
});
