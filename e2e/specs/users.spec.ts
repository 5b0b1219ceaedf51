import type { Locator } from '@playwright/test';
import { paths } from '../../apps/web/src/lib/paths';
import { expect, test, type FreshTenant, type Page } from '../fixtures';
import { dialog, openRowMenu, openScreen } from '../pages';
import type { E2eEnv } from '../env';

/**
 * The Users screen: the two-step invite dialog,
 * edit, view, delete, field messages before and after sending, paging and sorting, resend
 * invitation. Each test has a tenant of its own (e2e/tenant-fixture.ts).
 */

const textbox = (scope: Locator, name: string) =>
  scope.getByRole('textbox', { name: new RegExp(`^${name}`) });
const roleSelect = (scope: Locator) => scope.getByRole('combobox', { name: /^Role/ });
const INVITATION = /\/newpassword\?token=/;

async function openUsers(page: Page, tenant: FreshTenant) {
  await openScreen(page, tenant, paths.users, 'Users');
  await expect(page.getByRole('row', { name: new RegExp(tenant.admin.email) })).toBeVisible();
}

/** Step 1 of "Invite users": the details, then Next. */
async function fillDetails(
  invite: Locator,
  who: { firstName: string; lastName: string; email: string },
) {
  await expect(invite.getByText('Step 1/2')).toBeVisible();
  await expect(invite.getByRole('heading', { name: 'Add Details' })).toBeVisible();
  await textbox(invite, 'First name').fill(who.firstName);
  await textbox(invite, 'Last name').fill(who.lastName);
  await textbox(invite, 'E-mail').fill(who.email);
  await invite.getByRole('button', { name: 'Next' }).click();
}

async function chooseRole(page: Page, invite: Locator, role: string) {
  await roleSelect(invite).click();
  await page.getByRole('option', { name: role, exact: true }).click();
  await expect(roleSelect(invite)).toHaveValue(role);
}

/** How many mails the test SMTP server received for an address. */
async function mailCount(env: E2eEnv, to: string): Promise<number> {
  const response = await fetch(`${env.mailUrl}/mails?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as unknown[]).length;
}

test.describe('users', () => {
  // A fresh tenant (its administrator's invitation, password and sign-in) takes a while.
  test.describe.configure({ timeout: 90_000 });

  test('invite in two steps: the row shows role, status and "Invited", and the mail arrives', async ({
    page,
    freshTenant,
    mail,
  }) => {
    const tenant = await freshTenant();
    await openUsers(page, tenant);
    const email = `grace.hopper@${tenant.domain}`;

    await page.getByRole('button', { name: 'Add new' }).click();
    const invite = dialog(page, 'Invite users');
    await fillDetails(invite, { firstName: 'Grace', lastName: 'Hopper', email });
    await expect(invite.getByText('Step 2/2')).toBeVisible();
    await expect(
      invite.getByRole('heading', { name: 'Who would you like to invite?' }),
    ).toBeVisible();

    // Back shows step 1 with what was typed.
    await invite.getByRole('button', { name: 'Back' }).click();
    await expect(textbox(invite, 'First name')).toHaveValue('Grace');
    await expect(textbox(invite, 'E-mail')).toHaveValue(email);
    await invite.getByRole('button', { name: 'Next' }).click();

    await chooseRole(page, invite, 'Member');
    await expect(invite.getByRole('combobox', { name: /^Status/ })).toContainText('Active');
    await invite.getByRole('button', { name: 'Save user' }).click();
    await expect(invite).toBeHidden();

    const row = page.getByRole('row', { name: new RegExp(email) });
    await expect(row).toContainText('Grace Hopper');
    await expect(row).toContainText('Member');
    await expect(row).toContainText('Active');
    await expect(row).toContainText('Invited');

    const invitation = await mail.waitFor(email, INVITATION);
    expect(mail.link(invitation, '/newpassword')).toContain(tenant.domain);
  });

  test('field messages show before sending, and nothing is sent', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    await openUsers(page, tenant);
    const creates: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/users/create')) creates.push(request.url());
    });

    await page.getByRole('button', { name: 'Add new' }).click();
    const invite = dialog(page, 'Invite users');
    await fillDetails(invite, { firstName: '', lastName: 'Lovelace', email: 'not-an-e-mail' });
    await expect(invite.getByText('Step 1/2')).toBeVisible();
    await expect(textbox(invite, 'First name')).toHaveAccessibleDescription('Enter a first name.');
    await expect(textbox(invite, 'E-mail')).toHaveAccessibleDescription(
      'Enter a valid e-mail address.',
    );

    // Enter in a field goes on like Next; step 2 asks for a role.
    await textbox(invite, 'First name').fill('Ada');
    await textbox(invite, 'E-mail').fill(`ada@${tenant.domain}`);
    await textbox(invite, 'E-mail').press('Enter');
    await expect(invite.getByText('Step 2/2')).toBeVisible();
    await invite.getByRole('button', { name: 'Save user' }).click();
    await expect(invite.getByText('Choose a role.')).toBeVisible();
    await expect(invite).toBeVisible();
    expect(creates).toEqual([]);
  });

  test("a duplicate e-mail: the server's message on the field, step 1 shown again, input kept", async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await openUsers(page, tenant);

    await page.getByRole('button', { name: 'Add new' }).click();
    const invite = dialog(page, 'Invite users');
    // Another case of the administrator's address: e-mails are unique regardless of case.
    const taken = tenant.admin.email.toUpperCase();
    await fillDetails(invite, { firstName: 'Second', lastName: 'Admin', email: taken });
    await chooseRole(page, invite, 'Admin');
    const answer = page.waitForResponse((response) => response.url().endsWith('/users/create'));
    await invite.getByRole('button', { name: 'Save user' }).click();
    expect((await answer).status()).toBe(409);

    await expect(invite).toBeVisible();
    await expect(invite.getByText('Step 1/2')).toBeVisible();
    await expect(textbox(invite, 'E-mail')).toHaveAccessibleDescription(
      'This e-mail address is already in use.',
    );
    await expect(textbox(invite, 'E-mail')).toHaveValue(taken);
    await expect(textbox(invite, 'First name')).toHaveValue('Second');
    await expect(textbox(invite, 'E-mail')).toBeFocused();

    // Corrected, the same dialog saves; the role chosen before is still chosen.
    await textbox(invite, 'E-mail').fill(`second.admin@${tenant.domain}`);
    await invite.getByRole('button', { name: 'Next' }).click();
    await expect(roleSelect(invite)).toHaveValue('Admin');
    await invite.getByRole('button', { name: 'Save user' }).click();
    await expect(invite).toBeHidden();
    await expect(page.getByRole('row', { name: /second\.admin@/ })).toContainText('Admin');
  });

  test('edit: name, role and status change in the row', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    const user = await tenant.createUser({ firstName: 'Alan', lastName: 'Turing' });
    await openUsers(page, tenant);

    const menu = await openRowMenu(page, new RegExp(user.email));
    await menu.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = dialog(page, 'Edit User');
    await expect(textbox(edit, 'First name')).toHaveValue('Alan');
    await textbox(edit, 'Last name').fill('Mathison Turing');
    await chooseRole(page, edit, 'Admin');
    await edit.getByRole('combobox', { name: /^Status/ }).click();
    await page.getByRole('option', { name: 'Inactive' }).click();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByRole('status')).toContainText('Saved.');

    const row = page.getByRole('row', { name: new RegExp(user.email) });
    await expect(row).toContainText('Alan Mathison Turing');
    await expect(row).toContainText('Admin');
    await expect(row).toContainText('Inactive');
  });

  test('view: every input disabled, no confirm button', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    const user = await tenant.createUser({ firstName: 'Katherine', lastName: 'Johnson' });
    await openUsers(page, tenant);

    const menu = await openRowMenu(page, new RegExp(user.email));
    await menu.getByRole('menuitem', { name: 'View' }).click();
    const view = dialog(page, 'View User');
    for (const name of ['First name', 'Last name', 'E-mail']) {
      await expect(textbox(view, name)).toBeDisabled();
    }
    await expect(textbox(view, 'First name')).toHaveValue('Katherine');
    await expect(roleSelect(view)).toBeDisabled();
    await expect(view.getByRole('combobox', { name: /^Status/ })).toBeDisabled();
    await expect(view.getByRole('button', { name: /^Save/ })).toHaveCount(0);
    await view.getByRole('button', { name: 'Cancel' }).click();
    await expect(view).toBeHidden();
  });

  test('delete asks first; the own row offers no Delete', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    const user = await tenant.createUser({ firstName: 'Dennis', lastName: 'Ritchie' });
    await openUsers(page, tenant);

    let menu = await openRowMenu(page, new RegExp(user.email));
    await menu.getByRole('menuitem', { name: 'Delete' }).click();
    const remove = dialog(page, 'Delete User');
    await expect(remove.getByText('Are you sure you want to delete this user?')).toBeVisible();
    await remove.getByRole('button', { name: 'Delete user' }).click();
    await expect(remove).toBeHidden();
    await expect(page.getByRole('row', { name: new RegExp(user.email) })).toHaveCount(0);

    // The server refuses to delete oneself, so the administrator's row does not offer it.
    menu = await openRowMenu(page, new RegExp(tenant.admin.email));
    await expect(menu.getByRole('menuitem', { name: 'Edit' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  });

  test('paging and sorting over 26 users, on the server', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    await tenant.seedUsers(25);
    await openUsers(page, tenant);
    const grid = page.getByRole('grid', { name: 'Users' });
    const dataRows = grid.getByRole('row').filter({ has: page.getByRole('gridcell') });

    // Sorted by e-mail; the number is the position in the list.
    await expect(dataRows).toHaveCount(10);
    await expect(dataRows.first()).toContainText(tenant.admin.email);
    await expect(dataRows.nth(9)).toContainText(`seed.009@${tenant.domain}`);
    await expect(page.getByText('1–10 of 26')).toBeVisible();

    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect(dataRows.first()).toContainText(`seed.010@${tenant.domain}`);
    await expect(dataRows.first().getByRole('gridcell').first()).toHaveText('11');
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect(dataRows).toHaveCount(6);
    await expect(dataRows.last()).toContainText(`seed.025@${tenant.domain}`);
    await expect(dataRows.last().getByRole('gridcell').first()).toHaveText('26');

    // A sort starts again at page 1, newest e-mail first.
    const sorted = page.waitForRequest(
      (request) =>
        request.url().endsWith('/users/page') &&
        (request.postDataJSON() as { listSort: { direction: number } }).listSort.direction === 1,
    );
    await grid.getByRole('columnheader', { name: 'E-mail' }).click();
    const body = (await sorted).postDataJSON() as { pageIndex: number; listSort: unknown };
    expect(body).toMatchObject({ pageIndex: 1, listSort: { field: 'email', direction: 1 } });
    await expect(page).toHaveURL(/sort=email\.desc/);
    await expect(dataRows.first()).toContainText(`seed.025@${tenant.domain}`);
    await expect(dataRows).toHaveCount(10);

    // By role: the administrator (Admin) before the 25 Members.
    await grid.getByRole('columnheader', { name: 'Role' }).click();
    await expect(page).toHaveURL(/sort=role\.asc/);
    await expect(dataRows.first()).toContainText(tenant.admin.email);
  });

  test('no empty state: a tenant always has its administrator', async ({ page, freshTenant }) => {
    // The empty state "Start adding Users" cannot occur: the tenant's first administrator is a
    // user, and the server refuses to delete oneself. The list of a fresh tenant shows them.
    const tenant = await freshTenant();
    await openUsers(page, tenant);
    await expect(page.getByText('Start adding Users')).toHaveCount(0);
    const row = page.getByRole('row', { name: new RegExp(tenant.admin.email) });
    await expect(row).toContainText('Admin');
    await expect(row).not.toContainText('Invited');
  });

  test('resend invitation: a fresh mail goes out and a notice confirms it', async ({
    page,
    env,
    freshTenant,
    mail,
  }) => {
    const tenant = await freshTenant();
    const user = await tenant.createUser({ firstName: 'Hedy', lastName: 'Lamarr' });
    const first = await mail.waitFor(user.email, INVITATION);
    await openUsers(page, tenant);

    const menu = await openRowMenu(page, new RegExp(user.email));
    await menu.getByRole('menuitem', { name: 'View' }).click();
    const view = dialog(page, 'View User');
    await expect(view.getByText(/has not set a password yet/)).toBeVisible();
    const before = await mailCount(env, user.email);
    await view.getByRole('button', { name: 'Resend invitation' }).click();
    // Confirmed in the dialog (a modal hides the page's notices from screen readers).
    await expect(view.getByRole('alert')).toContainText(
      `The invitation was sent again to ${user.email}.`,
    );
    await expect(view.getByRole('button', { name: 'Resend invitation' })).toHaveCount(0);
    await expect.poll(() => mailCount(env, user.email)).toBeGreaterThan(before);
    const second = await mail.waitFor(user.email, INVITATION);
    expect(mail.link(second, '/newpassword')).not.toBe(mail.link(first, '/newpassword'));

    // The administrator has a password: nothing to resend.
    await view.getByRole('button', { name: 'Cancel' }).click();
    const own = await openRowMenu(page, new RegExp(tenant.admin.email));
    await own.getByRole('menuitem', { name: 'View' }).click();
    await expect(
      dialog(page, 'View User').getByRole('button', { name: 'Resend invitation' }),
    ).toHaveCount(0);
  });
});
