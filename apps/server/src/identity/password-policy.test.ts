import { dictionary } from '@zxcvbn-ts/language-common';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecurityPolicy } from '@tc/contract/security';
import { tenants } from '../db/schema/tenants';
import {
  api,
  callApi,
  createSignedInTenant,
  signIn,
  tokenRequest,
  uniqueName,
} from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';
import { followLink, linkIn, postJson, tenantHost, type HttpAnswer } from '../test/helpers/account';
import { startSmtpServer, type TestSmtpServer } from '../test/smtp';
import { DEFAULT_PASSWORD_RULES, isCommonPassword, passwordProblem } from './password-policy';

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

/** On the common list, with a special character and 8 characters: only the list refuses it. */
const COMMON = 'P@ssw0rd';
const GOOD = 'Brand-new-pass#1';

type Tenant = Awaited<ReturnType<typeof createSignedInTenant>>;

/** A new tenant whose administrator saved this policy through the Settings API. */
async function tenantWith(policy: Partial<SecurityPolicy>): Promise<Tenant> {
  const tenant = await createSignedInTenant(server);
  const saved = await callApi(server, tenant.token, 'PUT', '/settings/security', {
    mfaPolicy: 'optional',
    ...DEFAULT_PASSWORD_RULES,
    ...policy,
  });
  expect(saved.status).toBe(200);
  return tenant;
}

interface Invited {
  email: string;
  link: URL;
}

/** Invites a user with this name; answers the invitation mail's link. */
async function invite(
  tenant: Tenant,
  person: { firstName: string; lastName: string; localPart?: string },
): Promise<Invited> {
  const email = `${person.localPart ?? uniqueName('inv')}@example.test`;
  const created = await callApi(server, tenant.token, 'POST', '/users/create', {
    firstName: person.firstName,
    lastName: person.lastName,
    email,
    roleId: tenant.memberRoleId,
  });
  expect(created.status).toBe(201);
  return { email, link: linkIn(await smtp.waitFor((m) => m.to.includes(email))) };
}

const setPassword = (link: URL, password: string) =>
  followLink(server, link, '/auth/reset-password', { password });

function expectRefused(answer: HttpAnswer, code: string, params?: Record<string, unknown>) {
  expect(answer.status, answer.body).toBe(400);
  const body = answer.json() as { code: string; fields: Record<string, unknown> };
  expect(body.fields).toEqual({ password: params ? { code, params } : { code } });
  expect(body.code).toBe(code);
}

async function expectSignsIn(realm: string, email: string, password: string) {
  expect((await signIn(server, realm, email, password)).access_token).toBeTruthy();
}

describe('the common-password list', () => {
  it('is the one of @zxcvbn-ts/language-common, compared without case', async () => {
    const list = dictionary['passwords-common'];
    expect(list).toHaveLength(49_233);
    expect(list).toContain(COMMON.toLowerCase());
    expect(await isCommonPassword(COMMON)).toBe(true);
    expect(await isCommonPassword(COMMON.toUpperCase())).toBe(true);
    expect(await isCommonPassword(GOOD)).toBe(false);
  });
});

describe('a password reset follows the tenant’s policy', () => {
  it('refuses a common password while the tenant refuses them, and accepts it when not', async () => {
    for (const refuseCommon of [true, false]) {
      const tenant = await tenantWith({ passwordRefuseCommon: refuseCommon });
      const forgot = await postJson(
        server,
        '/auth/forgot-password',
        { email: tenant.adminEmail },
        { host: tenantHost(server, tenant.domain) },
      );
      expect(forgot.status).toBe(202);
      const link = linkIn(
        await smtp.waitFor((m) => m.to.includes(tenant.adminEmail) && /Reset/.test(m.subject)),
      );
      if (refuseCommon) {
        expectRefused(await setPassword(link, COMMON), 'password.common');
        // A refusal leaves the link usable.
        expect((await setPassword(link, GOOD)).status).toBe(200);
        await expectSignsIn(tenant.name, tenant.adminEmail, GOOD);
      } else {
        expect((await setPassword(link, COMMON)).status).toBe(200);
        await expectSignsIn(tenant.name, tenant.adminEmail, COMMON);
      }
    }
  });
});

describe('an invitation follows the tenant’s policy', () => {
  it('refuses a password holding the e-mail’s local part or a name, in any case', async () => {
    const tenant = await tenantWith({});
    const localPart = uniqueName('zq');
    const grace = await invite(tenant, { firstName: 'Grace', lastName: 'Hopper', localPart });
    for (const password of [
      `${localPart.toUpperCase()}#1`,
      'amazing-GRACE#1',
      'x!hopper!x12',
      grace.email,
    ]) {
      const answer = await setPassword(grace.link, password);
      const code = password === grace.email ? 'password.is_email' : 'password.contains_personal';
      expectRefused(answer, code);
    }
    expect((await setPassword(grace.link, GOOD)).status).toBe(200);
    await expectSignsIn(tenant.name, grace.email, GOOD);

    // Names and local parts under three characters are too common to refuse.
    const al = await invite(tenant, { firstName: 'Al', lastName: 'Wu', localPart: `al` });
    expect((await setPassword(al.link, 'Al-and-Wu#2024')).status).toBe(200);
  });

  it('accepts the name when the tenant does not refuse common passwords', async () => {
    const tenant = await tenantWith({ passwordRefuseCommon: false });
    const grace = await invite(tenant, { firstName: 'Grace', lastName: 'Hopper' });
    expect((await setPassword(grace.link, 'amazing-GRACE#1')).status).toBe(200);
    await expectSignsIn(tenant.name, grace.email, 'amazing-GRACE#1');
  });

  it('holds the password to the tenant’s minimum length', async () => {
    const tenant = await tenantWith({ passwordMinLength: 12 });
    const grace = await invite(tenant, { firstName: 'Grace', lastName: 'Hopper' });
    const short = await setPassword(grace.link, 'Short#pass1');
    expectRefused(short, 'password.too_short', { minimum: 12 });
    expect(short.json()).toMatchObject({
      errors: { password: 'Must be at least 12 characters' },
    });
    expect((await setPassword(grace.link, 'Longer#pass1')).status).toBe(200);
  });

  it('needs a special character only while the tenant requires one', async () => {
    const plain = 'quiet river stone 42';
    const strict = await tenantWith({});
    const refused = await invite(strict, { firstName: 'Grace', lastName: 'Hopper' });
    expectRefused(await setPassword(refused.link, plain), 'password.needs_special');

    const relaxed = await tenantWith({ passwordRequireSpecial: false });
    const grace = await invite(relaxed, { firstName: 'Grace', lastName: 'Hopper' });
    expect((await setPassword(grace.link, plain)).status).toBe(200);
    await expectSignsIn(relaxed.name, grace.email, plain);
  });

  it('answers any text with 2xx or a 400 on the password, never a 5xx', async () => {
    const tenant = await tenantWith({ passwordRequireSpecial: false, passwordMinLength: 8 });
    const grace = await invite(tenant, { firstName: 'Grace', lastName: 'Hopper' });
    for (const password of ['\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000', 'tab\there!!']) {
      const answer = await setPassword(grace.link, password);
      expect(answer.status).toBe(400);
      expect(Object.keys((answer.json() as { fields: object }).fields)).toEqual(['password']);
    }
    expect((await setPassword(grace.link, 'ẞtraße\u{1F510}\u202Ewört')).status).toBe(200);
  });
});

describe('sign-up follows the tenant’s policy', () => {
  it('refuses what the policy refuses, without spending the address’s mail budget', async () => {
    const tenant = await tenantWith({ passwordMinLength: 12 });
    await server.database.db
      .update(tenants)
      .set({ allowSignup: true })
      .where(eq(tenants.id, tenant.tenantId));
    const email = `${uniqueName('ada')}@example.test`;
    const signup = (password: string) =>
      postJson(
        server,
        '/auth/signup',
        { fullName: 'Ada King Lovelace', email, password },
        { host: tenantHost(server, tenant.domain) },
      );
    // More refusals than the three mails an address may ask for in 15 minutes.
    expectRefused(await signup('Signup#pass'), 'password.too_short', { minimum: 12 });
    // The list's one entry of 12 characters with a special character.
    expectRefused(await signup('P030710P$E4O'), 'password.common');
    expectRefused(await signup('Lovelace#2024'), 'password.contains_personal');
    expectRefused(await signup('x-king-of-the-hill#1'), 'password.contains_personal');
    expect((await signup('Analytical#engine1')).status).toBe(202);
    const link = linkIn(await smtp.waitFor((m) => m.to.includes(email)));
    expect((await followLink(server, link, '/auth/verify-email')).status).toBe(200);
    const grant = await tokenRequest(server, tenant.name, {
      client_id: 'react-client',
      grant_type: 'password',
      username: email,
      password: 'Analytical#engine1',
    });
    expect(grant.status).toBe(200);
  });
});

describe('identify', () => {
  it('answers the tenant’s password rules before sign-in', async () => {
    const rules = {
      passwordMinLength: 14,
      passwordRequireSpecial: false,
      passwordRefuseCommon: true,
    };
    const tenant = await tenantWith(rules);
    const identify = await api(server, '/tenants/identify', undefined, {
      headers: { 'tenant-id': tenant.tenantId },
    });
    expect(identify.status).toBe(200);
    expect(((await identify.json()) as { data: unknown }).data).toMatchObject({
      id: tenant.tenantId,
      passwordRules: rules,
    });
    const master = await api(server, '/tenants/identify');
    expect(((await master.json()) as { data: unknown }).data).toMatchObject({
      passwordRules: DEFAULT_PASSWORD_RULES,
    });
  });
});

describe('passwordProblem', () => {
  const person = { email: 'grace.hopper@example.test', firstName: 'Grace', lastName: 'Hopper' };
  it('names the first rule broken, in the checklist’s order', async () => {
    const rules = { ...DEFAULT_PASSWORD_RULES, passwordMinLength: 10 };
    const check = (password: string) => passwordProblem(rules, { ...person, password });
    expect(await check('p@ssw0rd')).toEqual({
      code: 'password.too_short',
      params: { minimum: 10 },
    });
    expect(await check('password12')).toEqual({ code: 'password.needs_special' });
    expect(await check('P030710P$E4O')).toEqual({ code: 'password.common' });
    expect(await check('Grace.Hopper-1')).toEqual({ code: 'password.contains_personal' });
    expect(await check('GRACE.HOPPER@EXAMPLE.TEST')).toEqual({ code: 'password.is_email' });
    expect(await check(GOOD)).toBeUndefined();
  });
});
