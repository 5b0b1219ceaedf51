import { expect, test, type Page } from '../fixtures';
import { dialog, openRowMenu, openScreen } from '../pages';

/** The Roles and Permissions screens, each test in its own tenant. */
test.describe.configure({ timeout: 60_000 });

async function chooseOption(page: Page, field: RegExp, option: string) {
  await dialog(page).getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  // Choosing closes the list; an Escape now would close the dialog.
  await expect(page.getByRole('listbox')).toBeHidden();
}

const grid = (page: Page) => page.getByRole('grid');

test.describe('roles', () => {
  test('add, view, edit and delete a role; errors keep the dialog open', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await openScreen(page, tenant, '/dashboard/roles', 'Roles');

    // A missing name is caught before anything is sent.
    await page.getByRole('button', { name: 'Add new' }).click();
    const add = dialog(page, 'Add new role');
    await add.getByRole('button', { name: 'Save role' }).click();
    await expect(add.getByText('Enter a name.')).toBeVisible();

    // A duplicate is the server's answer, shown on the field it names; the input stays.
    await add.getByRole('textbox', { name: /^Name/ }).fill('Admin');
    await add.getByRole('textbox', { name: 'Description' }).fill('Audits everything.');
    await add.getByRole('button', { name: 'Save role' }).click();
    await expect(add.getByText('A role with this name already exists.')).toBeVisible();
    await expect(add.getByRole('textbox', { name: 'Description' })).toHaveValue(
      'Audits everything.',
    );

    await add.getByRole('textbox', { name: /^Name/ }).fill('Auditor');
    await chooseOption(page, /Permissions/, 'users:read');
    await add.getByRole('button', { name: 'Save role' }).click();
    await expect(add).toBeHidden();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    const row = grid(page).getByRole('row', { name: /Auditor/ });
    await expect(row).toContainText('users:read');

    // View: every input disabled, no confirm button.
    await (await openRowMenu(page, /Auditor/)).getByRole('menuitem', { name: 'View' }).click();
    const view = dialog(page, 'View role');
    await expect(view.getByRole('textbox', { name: /^Name/ })).toBeDisabled();
    await expect(view.getByRole('button', { name: /save/i })).toHaveCount(0);
    await view.getByRole('button', { name: 'Cancel' }).click();

    await (await openRowMenu(page, /Auditor/)).getByRole('menuitem', { name: 'Edit' }).click();
    const edit = dialog(page, 'Edit role');
    await edit.getByRole('textbox', { name: 'Description' }).fill('Reads the audit trail.');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText('Reads the audit trail.');

    await (await openRowMenu(page, /Auditor/)).getByRole('menuitem', { name: 'Delete' }).click();
    const remove = dialog(page, 'Delete role');
    await expect(remove).toContainText('Are you sure you want to delete this role?');
    await remove.getByRole('button', { name: 'Delete role' }).click();
    await expect(remove).toBeHidden();
    await expect(row).toHaveCount(0);

    // The built-in Admin role cannot be deleted.
    const adminMenu = await openRowMenu(page, /^\d+ Admin /);
    await expect(adminMenu.getByRole('menuitem', { name: 'Edit' })).toBeVisible();
    await expect(adminMenu.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  });

  test('pages and sorts 25+ roles on the server', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    const names = Array.from({ length: 26 }, (_, i) => `Team ${String(i + 1).padStart(2, '0')}`);
    for (const name of names) await tenant.createRole({ name });
    await openScreen(page, tenant, '/dashboard/roles', 'Roles');

    // Admin, Member and 26 teams: 28 rows, 10 a page, sorted by name.
    await expect(page.getByText('1–10 of 28')).toBeVisible();
    await expect(grid(page).getByRole('row').nth(1)).toContainText('Admin');
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText('11–20 of 28')).toBeVisible();
    await expect(grid(page).getByRole('row').nth(1)).toContainText('11');

    await page.getByRole('columnheader', { name: 'Name' }).click();
    await expect(grid(page).getByRole('row').nth(1)).toContainText('Team 26');
    await expect(page).toHaveURL(/sort=name\.desc/);
    await expect(page.getByText('1–10 of 28')).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search roles' }).fill('team 0');
    await expect(page.getByText('1–9 of 9')).toBeVisible();
  });
});

test.describe('permissions', () => {
  test('add, edit and delete a permission', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    await openScreen(page, tenant, '/dashboard/permissions', 'Permissions');

    await page.getByRole('button', { name: 'Add new' }).click();
    const add = dialog(page, 'Add new permission');
    await add.getByRole('textbox', { name: /^Name/ }).fill('reports:export');
    await add.getByRole('button', { name: 'Save permission' }).click();
    await expect(add.getByText('Choose at least one role.')).toBeVisible();

    await chooseOption(page, /Roles/, 'Admin');
    await add.getByRole('button', { name: 'Save permission' }).click();
    await expect(add).toBeHidden();
    const row = grid(page).getByRole('row', { name: /reports:export/ });
    await expect(row).toContainText('Admin');

    // A second one with the same name: the server's 409 lands on the name.
    await page.getByRole('button', { name: 'Add new' }).click();
    await add.getByRole('textbox', { name: /^Name/ }).fill('reports:export');
    await chooseOption(page, /Roles/, 'Member');
    await add.getByRole('button', { name: 'Save permission' }).click();
    await expect(add.getByText(/already exists/)).toBeVisible();
    await add.getByRole('button', { name: 'Cancel' }).click();

    await (
      await openRowMenu(page, /reports:export/)
    )
      .getByRole('menuitem', { name: 'Edit' })
      .click();
    const edit = dialog(page, 'Edit permission');
    await chooseOption(page, /Roles/, 'Member');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText('Member');

    await (
      await openRowMenu(page, /reports:export/)
    )
      .getByRole('menuitem', { name: 'Delete' })
      .click();
    const remove = dialog(page, 'Delete permission');
    await expect(remove).toContainText('Are you sure you want to delete this permission?');
    await remove.getByRole('button', { name: 'Delete permission' }).click();
    await expect(row).toHaveCount(0);
  });

  test('a system permission cannot be deleted or renamed', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    await openScreen(page, tenant, '/dashboard/permissions', 'Permissions');
    // A system permission on the first page (sorted by name).
    const systemMenu = await openRowMenu(page, /audit:read/);
    await expect(systemMenu.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
    await systemMenu.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(
      dialog(page, 'Edit permission').getByRole('textbox', { name: /^Name/ }),
    ).toBeDisabled();
  });
});

test.describe('permissions list', () => {
  test('pages and sorts 25+ permissions on the server; view shows them read-only', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    for (let i = 1; i <= 16; i += 1) {
      await tenant.createPermission({ name: `zz:report-${String(i).padStart(2, '0')}` });
    }
    await openScreen(page, tenant, '/dashboard/permissions', 'Permissions');

    // The 16 system permissions and 16 of the tenant's own: 32 rows, sorted by name.
    await expect(page.getByText('1–10 of 32')).toBeVisible();
    await expect(grid(page).getByRole('row').nth(1)).toContainText('audit:read');
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText('11–20 of 32')).toBeVisible();

    await page.getByRole('columnheader', { name: 'Name' }).click();
    await expect(grid(page).getByRole('row').nth(1)).toContainText('zz:report-16');
    await expect(page).toHaveURL(/sort=name\.desc/);

    await (await openRowMenu(page, /zz:report-16/)).getByRole('menuitem', { name: 'View' }).click();
    const view = dialog(page, 'View permission');
    await expect(view.getByRole('textbox', { name: /^Name/ })).toBeDisabled();
    await expect(view.getByRole('textbox', { name: /^Name/ })).toHaveValue('zz:report-16');
    await expect(view.getByRole('button', { name: /save/i })).toHaveCount(0);
  });
});
