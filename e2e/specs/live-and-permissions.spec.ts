import type { Locator } from '@playwright/test';
import { paths } from '../../apps/web/src/lib/paths';
import { expectAccessible } from '../axe';
import { expect, test, type FreshTenant, type Page } from '../fixtures';
import { dialog, navigation, openScreen, openSignedIn } from '../pages';

/**
 * Open lists follow other administrators' changes without a reload;
 * a read-only user sees the lists but no write action; the Users screen and its invite
 * dialog pass axe. Each test has a tenant of its own (e2e/tenant-fixture.ts).
 */

const textbox = (scope: Locator, name: string) =>
  scope.getByRole('textbox', { name: new RegExp(`^${name}`) });

async function openUsers(page: Page, tenant: FreshTenant) {
  await openScreen(page, tenant, paths.users, 'Users');
  await expect(page.getByRole('row', { name: new RegExp(tenant.admin.email) })).toBeVisible();
}

test.describe('live updates and permissions', () => {
  // A fresh tenant (its administrator's invitation, password and sign-in) takes a while.
  test.describe.configure({ timeout: 90_000 });

  test('a user invited in a second browser appears in the first without a reload', async ({
    page,
    browser,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await openUsers(page, tenant);
    // Survives only if the page is not reloaded.
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));

    const other = await browser.newContext();
    try {
      const second = await other.newPage();
      await openUsers(second, tenant);
      await second.getByRole('button', { name: 'Add new' }).click();
      const invite = dialog(second, 'Invite users');
      const email = `live.user@${tenant.domain}`;
      await textbox(invite, 'First name').fill('Live');
      await textbox(invite, 'Last name').fill('Update');
      await textbox(invite, 'E-mail').fill(email);
      await invite.getByRole('button', { name: 'Next' }).click();
      await invite.getByRole('combobox', { name: /^Role/ }).click();
      await second.getByRole('option', { name: 'Member', exact: true }).click();
      await invite.getByRole('button', { name: 'Save user' }).click();
      await expect(invite).toBeHidden();

      await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Live Update');
      expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);

      // A change through the API (another client altogether) arrives the same way.
      const api = await tenant.createUser({ firstName: 'Api', lastName: 'Client' });
      await expect(page.getByRole('row', { name: new RegExp(api.email) })).toBeVisible();
      expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);
    } finally {
      await other.close();
    }
  });

  test("a row's menu opens while the list is being fetched again", async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await openUsers(page, tenant);
    // The next page answer is held: until it arrives, the grid shows its loading bar over the
    // rows, as it does whenever another administrator's change reloads an open list.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1.0/users/page', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('columnheader', { name: 'Name' }).click();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(1);
    await page
      .getByRole('row', { name: new RegExp(tenant.admin.email) })
      .getByRole('button', { name: /actions/i })
      // Before the fix the loading overlay took the click ("… intercepts pointer events").
      .click({ timeout: 20_000 });
    await expect(page.getByRole('menu')).toBeVisible();
    release();
  });

  test('a stream the server refuses is reopened by itself, and changes still arrive', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    // The first connection is answered 401 (as when the access token has just expired):
    // EventSource gives up on such an answer, so the console must open a new stream itself.
    let refused = 0;
    await page.route('**/api/v1.0/events?**', (route) => {
      if (refused++ === 0) return route.fulfill({ status: 401, body: '' });
      return route.continue();
    });
    await openUsers(page, tenant);
    await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThan(1);

    const user = await tenant.createUser({ firstName: 'After', lastName: 'Reconnect' });
    await expect(page.getByRole('row', { name: new RegExp(user.email) })).toBeVisible();
  });

  test('a read-only user sees Users, Roles, Permissions and Projects but no write action', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    const reader = await tenant.readOnlyUser();
    await tenant.createProject({ name: 'Read-only bridge' });
    await openSignedIn(page, tenant, '/home', reader);

    const nav = navigation(page);
    await nav.getByRole('button', { name: 'Administration', exact: true }).click();
    for (const entry of ['Users', 'Roles', 'Permissions']) {
      await expect(nav.getByRole('link', { name: entry, exact: true })).toBeVisible();
    }

    const screens = [
      { path: paths.users, title: 'Users' },
      { path: paths.roles, title: 'Roles' },
      { path: paths.permissions, title: 'Permissions' },
      { path: paths.projects, title: 'Projects' },
    ];
    for (const screen of screens) {
      await page.goto(`${tenant.url}${screen.path}`);
      await expect(page.getByRole('heading', { level: 1, name: screen.title })).toBeVisible();
      const rows = page.getByRole('button', { name: /^Actions for / });
      await expect(rows.first(), `${screen.title}: rows are listed`).toBeVisible();
      await expect(
        page.getByRole('button', { name: /^Add (new|your first)/ }),
        `${screen.title}: no Add button`,
      ).toHaveCount(0);

      await rows.first().click();
      const menu = page.getByRole('menu');
      await expect(menu.getByRole('menuitem', { name: 'View' })).toBeVisible();
      await expect(menu.getByRole('menuitem', { name: /^(Edit|Delete)$/ })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
    }

    // View still works, read-only, and offers no invitation to resend.
    await page.goto(`${tenant.url}${paths.users}`);
    await page.getByRole('button', { name: 'Actions for Reed Only' }).click();
    await page.getByRole('menuitem', { name: 'View' }).click();
    const view = dialog(page, 'View User');
    await expect(textbox(view, 'E-mail')).toBeDisabled();
    await expect(view.getByRole('button', { name: /^(Save|Resend)/ })).toHaveCount(0);
  });

  test('axe: the invite dialog with field messages, its second step and role list', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await tenant.createUser({ firstName: 'Invited', lastName: 'Person' });
    await openUsers(page, tenant);
    await expect(page.getByText('Invited', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Add new' }).click();
    const invite = dialog(page, 'Invite users');
    await expect(invite.getByText('Step 1/2')).toBeVisible();

    // With field messages shown.
    await textbox(invite, 'E-mail').fill('not-an-e-mail');
    await invite.getByRole('button', { name: 'Next' }).click();
    await expect(invite.getByText('Enter a valid e-mail address.')).toBeVisible();
    await expectAccessible(page, 'invite dialog, step 1 with messages');

    await textbox(invite, 'First name').fill('Axe');
    await textbox(invite, 'Last name').fill('Checked');
    await textbox(invite, 'E-mail').fill(`axe@${tenant.domain}`);
    await invite.getByRole('button', { name: 'Next' }).click();
    await expect(invite.getByText('Step 2/2')).toBeVisible();
    await expectAccessible(page, 'invite dialog, step 2');

    await invite.getByRole('combobox', { name: /^Role/ }).click();
    await expect(page.getByRole('option', { name: 'Member', exact: true })).toBeVisible();
    await expectAccessible(page, 'invite dialog, step 2, role list open');
  });
});
