import { randomBytes } from 'node:crypto';
import type { Page as ListPage } from '@tc/contract/paging';
import type { Tenant } from '@tc/contract/tenants';
import { test as base, expect, type Page } from '../fixtures';
import type { E2eEnv } from '../env';
import { dialog, openSignedIn } from '../pages';

/** Helpers of tenants.spec.ts: the super administrator's API and the screen's controls. */

export const random = () => randomBytes(4).toString('hex');
/** A 1×1 PNG: small, and a real image, so the preview and the served logo render. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The super administrator's API, and the tenants of one test (all named `<prefix>-…`). */
function superAdmin(env: E2eEnv, prefix: string) {
  let token: Promise<string> | undefined;
  const grant = async () => {
    const response = await fetch(`${env.adminUrl}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: 'react-client',
        grant_type: 'password',
        username: env.superAdmin.email,
        password: env.superAdmin.password,
      }),
    });
    expect(response.status, 'the super administrator signs in through the API').toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    token ??= grant();
    const response = await fetch(`${env.adminUrl}/api/v1.0${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { data: T };
    expect(response.ok, `${method} ${path}: ${JSON.stringify(json)}`).toBe(true);
    return json.data;
  };
  const create = (suffix = random()) =>
    call<Tenant>('POST', '/tenants/create', {
      name: `${prefix}-${suffix}`,
      domain: `${prefix}-${suffix}.localhost`,
    });
  return {
    prefix,
    call,
    create,
    /** Every tenant of this test, the ones added through the screen too. */
    async mine(): Promise<Tenant[]> {
      const page = await call<ListPage<Tenant>>('POST', '/tenants/page', {
        pageIndex: 1,
        pageSize: 100,
        filter: { search: prefix },
        listSort: { field: 'name', direction: 0 },
      });
      return page.data.filter((tenant) => tenant.name.startsWith(prefix));
    },
    async cleanup() {
      for (const tenant of await this.mine()) await call('DELETE', `/tenants/delete/${tenant.id}`);
    },
  };
}

export const test = base.extend<{ admin: ReturnType<typeof superAdmin> }>({
  admin: async ({ env }, use) => {
    const admin = superAdmin(env, `tt${random()}`);
    await use(admin);
    await admin.cleanup();
  },
});

/**
 * Opens Tenants on the master console signed in (where the super administrator lands after
 * the form: sign-in.spec.ts) and searches for this test's tenants.
 */
export async function openTenants(page: Page, env: E2eEnv, search: string) {
  const master = { url: env.adminUrl, name: 'master', admin: env.superAdmin };
  await openSignedIn(page, master, '/dashboard/tenants');
  await expect(page.getByRole('heading', { name: 'Tenants', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search tenants' }).fill(search);
  await expect(page).toHaveURL(new RegExp(`q=${search}`));
}

export const row = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(name) });
export const field = (page: Page, name: RegExp) => dialog(page).getByRole('textbox', { name });

/** The one axe check of the suite, full rule set (e2e/axe.ts). */
export { expectAccessible } from '../axe';
