import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@tc/contract/audit';
import type { Me } from '@tc/contract/identity';
import type { SecurityPolicy } from '@tc/contract/security';
import { api, callApi, createSignedInTenant, signIn } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { superAdminToken } from '../../test/helpers/tenants';
import { insertUser } from '../users';

let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;
let memberToken: string;

const DEFAULT_POLICY: SecurityPolicy = {
  mfaPolicy: 'optional',
  passwordMinLength: 8,
  passwordRequireSpecial: true,
  passwordRefuseCommon: true,
};
const STRICT: SecurityPolicy = {
  mfaPolicy: 'everyone',
  passwordMinLength: 12,
  passwordRequireSpecial: false,
  passwordRefuseCommon: false,
};

const read = (token: string) => callApi<SecurityPolicy>(server, token, 'GET', '/settings/security');
const write = (token: string, body: unknown) =>
  callApi<SecurityPolicy>(server, token, 'PUT', '/settings/security', body);

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createSignedInTenant(server);
  const email = `member@${tenant.domain}`;
  await server.database.db.transaction((tx) =>
    insertUser(tx, {
      tenantId: tenant.tenantId,
      email,
      firstName: 'Mia',
      lastName: 'Member',
      roleId: tenant.memberRoleId,
      password: TEST_PASSWORD,
    }),
  );
  memberToken = (await signIn(server, tenant.name, email, TEST_PASSWORD)).access_token;
});
afterAll(() => server?.close());

describe('GET and PUT /settings/security', () => {
  it('answers the defaults of a new tenant, then what was saved, to this tenant only', async () => {
    const fresh = await createSignedInTenant(server);
    const other = await createSignedInTenant(server);
    expect(await read(fresh.token)).toEqual({ status: 200, body: { data: DEFAULT_POLICY } });

    const saved = await write(fresh.token, STRICT);
    expect(saved).toEqual({ status: 200, body: { data: STRICT } });
    expect((await read(fresh.token)).body.data).toEqual(STRICT);
    // Each field on its own: nothing is kept from the previous value.
    const back = { ...DEFAULT_POLICY, mfaPolicy: 'admins' } as const;
    expect((await write(fresh.token, back)).body.data).toEqual(back);
    expect((await read(fresh.token)).body.data).toEqual(back);

    expect((await read(other.token)).body.data).toEqual(DEFAULT_POLICY);
  });

  it('refuses values outside the policy with a 400 naming the field, and changes nothing', async () => {
    const fresh = await createSignedInTenant(server);
    const cases: Array<[field: keyof SecurityPolicy, value: unknown, code: string]> = [
      ['passwordMinLength', 7, 'policy.min_length_range'],
      ['passwordMinLength', 129, 'policy.min_length_range'],
      ['passwordMinLength', 12.5, 'policy.min_length_range'],
      ['passwordMinLength', '12', 'field.invalid'],
      ['mfaPolicy', 'sometimes', 'field.invalid'],
      ['mfaPolicy', 'admins\u0000', 'field.invalid'],
      ['mfaPolicy', 'everyone\n', 'field.invalid'],
      ['mfaPolicy', '\u202eenoyreve', 'field.invalid'],
      ['passwordRequireSpecial', 'yes', 'field.invalid'],
      ['passwordRefuseCommon', null, 'field.invalid'],
    ];
    for (const [field, value, code] of cases) {
      const response = await api(server, '/settings/security', fresh.token, {
        method: 'PUT',
        body: JSON.stringify({ ...STRICT, [field]: value }),
      });
      expect(response.status, `${field}=${JSON.stringify(value)}`).toBe(400);
      const body = (await response.json()) as { fields: Record<string, { code: string }> };
      expect(Object.keys(body.fields), field).toEqual([field]);
      expect(body.fields[field]!.code, `${field}=${JSON.stringify(value)}`).toBe(code);
    }
    const missing: Partial<SecurityPolicy> = { ...STRICT };
    delete missing.passwordMinLength;
    const incomplete = await write(fresh.token, missing);
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors).toHaveProperty('passwordMinLength');
    expect((await read(fresh.token)).body.data).toEqual(DEFAULT_POLICY);
  });

  it('accepts the bounds 8 and 128', async () => {
    const fresh = await createSignedInTenant(server);
    for (const passwordMinLength of [8, 128]) {
      const saved = await write(fresh.token, { ...STRICT, passwordMinLength });
      expect(saved.status).toBe(200);
      expect(saved.body.data.passwordMinLength).toBe(passwordMinLength);
    }
  });
});

describe('who may read and change the policy', () => {
  it('gives tenant:write to the Admin role of a new tenant and not to Member', async () => {
    const me = (token: string) => callApi<Me>(server, token, 'GET', '/auth/me');
    expect((await me(tenant.token)).body.data.permissions).toContain('tenant:write');
    const member = (await me(memberToken)).body.data.permissions;
    expect(member).toContain('tenant:read');
    expect(member).not.toContain('tenant:write');
  });

  it('lets a member read it but not change it', async () => {
    expect((await read(memberToken)).status).toBe(200);
    const refused = await write(memberToken, STRICT);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('tenant:write');
    expect((await read(tenant.token)).body.data).toEqual(DEFAULT_POLICY);
  });

  it('answers 401 without a token and 403 to a super administrator', async () => {
    expect((await api(server, '/settings/security')).status).toBe(401);
    const anonymous = await api(server, '/settings/security', undefined, {
      method: 'PUT',
      body: JSON.stringify(STRICT),
    });
    expect(anonymous.status).toBe(401);
    const superAdmin = await superAdminToken(server);
    expect((await read(superAdmin)).status).toBe(403);
    expect((await write(superAdmin, STRICT)).status).toBe(403);
  });
});

describe('the audit of a change', () => {
  it('records who changed the policy, from what to what, in the tenant’s own log', async () => {
    const fresh = await createSignedInTenant(server);
    const other = await createSignedInTenant(server);
    expect((await write(fresh.token, STRICT)).status).toBe(200);
    const audit = (token: string) =>
      callApi<AuditEntry>(server, token, 'POST', '/audit/page', { filter: { entity: 'settings' } });
    const { status, body } = await audit(fresh.token);
    expect(status).toBe(200);
    expect(body.data.data).toHaveLength(1);
    expect(body.data.data[0]).toMatchObject({
      actorId: fresh.adminId,
      actorEmail: fresh.adminEmail,
      action: 'update',
      entity: 'settings',
      entityId: fresh.tenantId,
      before: DEFAULT_POLICY,
      after: STRICT,
    });
    expect((await audit(other.token)).body.data.data).toEqual([]);
  });
});
