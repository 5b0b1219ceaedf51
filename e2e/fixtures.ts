import { randomBytes } from 'node:crypto';
import { test as base, expect, type Page } from '@playwright/test';
import { e2eEnv, type E2eEnv } from './env';
import { tenantFactory, type FreshTenant, type FreshTenantOptions } from './tenant-fixture';

export interface Mail {
  index: number;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface Mailbox {
  /** Waits for a mail to this address (newest first) whose text matches, and returns it. */
  waitFor(to: string, match?: RegExp, timeoutMs?: number): Promise<Mail>;
  /** The first console link of the given path (e.g. /newpassword) in a mail. */
  link(mail: Mail, path: string): string;
}

export interface DemoApi {
  /** A fresh access token of the demo tenant's administrator (password grant). */
  adminToken(): Promise<string>;
  /** Invites a user (Viewer role) and returns the address; the invitation mail follows. */
  inviteUser(options?: { firstName?: string }): Promise<{ email: string }>;
  /** Posts the token endpoint of a realm; returns status and JSON body. */
  token(
    realm: string,
    form: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

export const uniqueEmail = (prefix = 'e2e') =>
  `${prefix}.${randomBytes(4).toString('hex')}@demo.localhost`;
export const NEW_PASSWORD = 'Fresh-passw0rd!2026';

export function mailbox(env: E2eEnv): Mailbox {
  return {
    // A minute: the outbox worker shares a loaded machine with browsers and other tests; the
    // test's own timeout still bounds the wait.
    async waitFor(to, match, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const response = await fetch(`${env.mailUrl}/mails?to=${encodeURIComponent(to)}`);
        const mails = ((await response.json()) as Mail[]).reverse();
        const found = mails.find((m) => !match || match.test(`${m.subject}\n${m.text}\n${m.html}`));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${match} arrived`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    link(mail, path) {
      const pattern = new RegExp(
        `https?://[^\\s"'<>]+${path.replace('/', '\\/')}\\?token=[^\\s"'<>]+`,
      );
      const found = pattern.exec(mail.text) ?? pattern.exec(mail.html);
      if (!found) throw new Error(`no ${path} link in the mail "${mail.subject}"`);
      return found[0].replaceAll('&amp;', '&');
    },
  };
}

function demoApi(env: E2eEnv): DemoApi {
  const token: DemoApi['token'] = async (realm, form) => {
    const response = await fetch(`${env.adminUrl}/realms/${realm}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: 'react-client', ...form }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const adminToken = async () => {
    const { status, body } = await token('demo', {
      grant_type: 'password',
      username: env.demoAdmin.email,
      password: env.demoAdmin.password,
    });
    expect(status, 'the demo admin signs in through the API').toBe(200);
    return body.access_token as string;
  };
  const api = async (accessToken: string, path: string, body: unknown) => {
    const response = await fetch(`${env.adminUrl}/api/v1.0${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { data: unknown };
    expect(response.ok, `POST ${path}: ${JSON.stringify(json)}`).toBe(true);
    return json.data;
  };
  return {
    token,
    adminToken,
    async inviteUser({ firstName = 'Erin' } = {}) {
      const accessToken = await adminToken();
      const roles = (await api(accessToken, '/roles/page', {
        pageIndex: 1,
        pageSize: 100,
        filter: {},
        listSort: { field: 'name', direction: 0 },
      })) as { data: { id: string; name: string }[] };
      const viewer = roles.data.find((role) => role.name === 'Viewer') ?? roles.data[0]!;
      const email = uniqueEmail(firstName.toLowerCase());
      await api(accessToken, '/users/create', {
        firstName,
        lastName: 'Endtoend',
        email,
        roleId: viewer.id,
      });
      return { email };
    },
  };
}

/**
 * Specs get the running system's addresses and credentials, the mailbox and API helpers, and
 * `freshTenant()`: a tenant of their own, deleted after the test (e2e/tenant-fixture.ts).
 */
export const test = base.extend<{
  env: E2eEnv;
  mail: Mailbox;
  api: DemoApi;
  freshTenant: (options?: FreshTenantOptions) => Promise<FreshTenant>;
}>({
  // eslint-disable-next-line no-empty-pattern
  env: async ({}, use) => use(e2eEnv()),
  mail: async ({ env }, use) => use(mailbox(env)),
  api: async ({ env }, use) => use(demoApi(env)),
  freshTenant: async ({ env, mail }, use) => {
    const tenants = tenantFactory(env, mail);
    await use(tenants.create);
    await tenants.disposeAll();
  },
});

export { expect, type Page };
export type { FreshTenant, FreshTenantOptions } from './tenant-fixture';
