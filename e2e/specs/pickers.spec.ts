import type { Page as ListPage } from '@tc/contract/paging';
import type { Project } from '@tc/contract/projects';
import type { Role } from '@tc/contract/roles';
import { prepare } from '../a11y-matrix';
import { expectAccessible } from '../axe';
import { expect, test, type Page } from '../fixtures';
import { dialog, openRowMenu, openScreen } from '../pages';

/**
 * The pickers search the server as one types, so a row beyond the first page of a large
 * list can be chosen: here a user past the first 100 by e-mail, as a project's owner and one
 * of its people, and a permission past the first offers, on a role.
 */

/** Every request of the page that searched a list (`filter.search`), by entity. */
function searchesSent(page: Page, entity: string): string[] {
  const searches: string[] = [];
  page.on('request', (request) => {
    if (!request.url().endsWith(`/api/v1.0/${entity}/page`)) return;
    const body = request.postDataJSON() as { filter?: { search?: string } };
    if (body.filter?.search) searches.push(body.filter.search);
  });
  return searches;
}

test.describe('pickers', () => {
  test('a user past the first 100 by e-mail is found by typing, chosen as owner and person, and shown after saving', async ({
    page,
    freshTenant,
  }) => {
    // 101 invitations through the API, then the screen: most of the budget is the seeding.
    test.setTimeout(180_000);
    const tenant = await freshTenant();
    // With the administrator (admin@…) first, seed.100 and seed.101 are rows 101 and 102.
    const seeded = await tenant.seedUsers(101);
    const [person, owner] = [seeded[99]!, seeded[100]!];
    expect([person.email, owner.email]).toEqual([
      `seed.100@${tenant.domain}`,
      `seed.101@${tenant.domain}`,
    ]);
    const searches = searchesSent(page, 'users');
    await openScreen(page, tenant, '/dashboard/projects', 'Projects');

    await page.getByRole('button', { name: 'Add new project' }).click();
    const add = dialog(page, 'Add new project');
    await add.getByRole('textbox', { name: /^Project name/ }).fill('Far reach');
    await add.getByRole('textbox', { name: /^Project number/ }).fill('FR-1');

    // Opened, the owner picker offers the first users by e-mail and says there are more.
    const ownerField = add.getByRole('combobox', { name: /^Owner/ });
    await ownerField.click();
    const listbox = page.getByRole('listbox');
    await expect(listbox.getByRole('option').first()).toContainText(tenant.admin.email);
    await expect(page.getByText('The first 20 of 102: type to find the others.')).toBeVisible();
    await expect(listbox.getByRole('option', { name: /Seed User 101/ })).toHaveCount(0);
    await expectAccessible(page, 'owner picker, open');

    await ownerField.fill('seed.101');
    await listbox.getByRole('option', { name: /^Seed User 101 seed\.101@/ }).click();
    await expect(ownerField).toHaveValue('Seed User 101');

    const peopleField = add.getByRole('combobox', { name: /^Assign people/ });
    await peopleField.fill('seed.100');
    await listbox.getByRole('option', { name: /^Seed User 100 seed\.100@/ }).click();
    await expect(add.getByRole('button', { name: 'Seed User 100' })).toBeVisible();
    // The server was asked for what was typed, not handed the whole list.
    expect(searches).toEqual(expect.arrayContaining(['seed.101', 'seed.100']));

    await add.getByRole('button', { name: 'Save project' }).click();
    await expect(add).toBeHidden();
    await expect(page.getByRole('row', { name: /Far reach/ })).toContainText('Seed User 101');
    const stored = await tenant.api<ListPage<Project>>('POST', '/projects/page', {});
    expect(stored.data).toHaveLength(1);
    expect(stored.data[0]).toMatchObject({
      ownerId: owner.id,
      owner: 'Seed User 101',
      peopleIds: [person.id],
    });

    // Edited again, the form shows both by name, though neither is on a first page.
    await (await openRowMenu(page, /Far reach/)).getByRole('menuitem', { name: 'Edit' }).click();
    const edit = dialog(page, 'Edit Project');
    await expect(edit.getByRole('combobox', { name: /^Owner/ })).toHaveValue('Seed User 101');
    await expect(edit.getByRole('button', { name: 'Seed User 100' })).toBeVisible();
  });

  test("a role's permission past the first offers is found by typing", async ({
    page,
    freshTenant,
  }) => {
    test.setTimeout(120_000);
    const tenant = await freshTenant();
    // 21 permissions named before every system one fill the first offers by themselves.
    const names = Array.from(
      { length: 21 },
      (_, i) => `aa.extra:${String(i + 1).padStart(2, '0')}`,
    );
    for (let i = 0; i < names.length; i += 7) {
      await Promise.all(names.slice(i, i + 7).map((name) => tenant.createPermission({ name })));
    }
    const searches = searchesSent(page, 'permissions');
    // The dark scheme, where the offers' colours differ most (the other test checks light).
    await prepare(page, { language: 'en', theme: 'dark' });
    await openScreen(page, tenant, '/dashboard/roles', 'Roles');

    await page.getByRole('button', { name: 'Add new' }).click();
    const add = dialog(page, 'Add new role');
    await add.getByRole('textbox', { name: /^Name/ }).fill('Auditor');
    const permissions = add.getByRole('combobox', { name: /^Permissions/ });
    await permissions.click();
    const listbox = page.getByRole('listbox');
    await expect(listbox.getByRole('option').first()).toHaveText('aa.extra:01');
    await expect(listbox.getByRole('option')).toHaveCount(20);
    await expect(listbox.getByRole('option', { name: 'users:read' })).toHaveCount(0);
    await expect(page.getByText(/^The first 20 of \d+: type to find the others\.$/)).toBeVisible();
    await expectAccessible(page, 'permission picker, open, dark');

    await permissions.fill('users:re');
    await listbox.getByRole('option', { name: 'users:read', exact: true }).click();
    await expect(add.getByRole('button', { name: 'users:read' })).toBeVisible();
    expect(searches).toContain('users:re');

    // Nothing matching says so.
    await permissions.fill('no-such-permission');
    await expect(page.getByText('No matches')).toBeVisible();
    await permissions.fill('');
    await page.keyboard.press('Escape');
    await expect(listbox).toBeHidden();

    await add.getByRole('button', { name: 'Save role' }).click();
    await expect(add).toBeHidden();
    const row = page.getByRole('grid').getByRole('row', { name: /Auditor/ });
    await expect(row).toContainText('users:read');
    const roles = await tenant.api<ListPage<Role>>('POST', '/roles/page', {
      filter: { search: 'Auditor' },
    });
    expect(roles.data.map((role) => role.permissions)).toEqual([['users:read']]);
  });
});
