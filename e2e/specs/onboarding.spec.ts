import type { Onboarding } from '@tc/contract/onboarding';
import type { Page as ListPage } from '@tc/contract/paging';
import type { Permission } from '@tc/contract/permissions-api';
import type { Role } from '@tc/contract/roles';
import type { User } from '@tc/contract/users';
import { expectAccessible } from '../axe';
import { expect, test, type FreshTenant, type Page } from '../fixtures';
import { expectSignedIn, logoutButton, openSignIn, signIn } from '../pages';

/**
 * The onboarding: it opens by itself on a new tenant's
 * first sign-in, its steps really create a role, a permission and an invited user, the
 * progress survives a reload, and completion is kept for the tenant.
 */
test.describe.configure({ timeout: 90_000 });

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const saveAndContinue = (page: Page) => page.getByRole('button', { name: 'Save and Continue' });

const pageRequest = (sortField: string) => ({
  pageIndex: 1,
  pageSize: 100,
  filter: {},
  listSort: { field: sortField, direction: 0 },
});
const rows = async <Row>(tenant: FreshTenant, entity: string, sortField = 'name') =>
  (await tenant.api<ListPage<Row>>('POST', `/${entity}/page`, pageRequest(sortField))).data;

async function chooseOption(page: Page, field: string, option: string) {
  await page.getByRole('combobox', { name: new RegExp(`^${field}`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the first sign-in opens the wizard; its steps create a role, a permission and a user', async ({
  page,
  freshTenant,
}) => {
  const tenant = await freshTenant({ onboarding: 'pending' });
  await openSignIn(page, tenant.url);
  await signIn(page, tenant.admin);

  // Landing on /home opens the wizard by itself.
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByText('Project Cockpit', { exact: true })).toBeVisible();
  await expect(
    heading(page, 'Boost Decision-making With Real-time Project Dashboards'),
  ).toBeVisible();
  await expect(
    page.getByText(
      'Lack of clear and current information slows down decision-making and problem-solving in big projects.',
    ),
  ).toBeVisible();
  await expect(
    page.getByRole('list', { name: /Project Cockpit/ }).getByRole('listitem'),
  ).toHaveCount(5);
  await page.getByRole('button', { name: 'Get started' }).click();

  // Step 1/3: the role.
  await expect(page).toHaveURL(/\/first-step$/);
  await expect(heading(page, 'Create Your First Role')).toBeVisible();
  await expect(page.getByText('Step 1/3')).toBeVisible();
  const roleName = page.getByRole('textbox', { name: /^Role Name/ });
  await expect(roleName).toHaveAttribute('placeholder', 'Admin');
  await roleName.fill('Site Managers');
  await saveAndContinue(page).click();

  // Step 2/3: the permission, the new role chosen already.
  await expect(page).toHaveURL(/\/second-step$/);
  await expect(heading(page, 'Assign Permissions to Your Role')).toBeVisible();
  const role = (await rows<Role>(tenant, 'roles')).find((r) => r.name === 'Site Managers');
  expect(role, 'step 1 created the role').toBeDefined();
  expect(role!.status).toBe('active');

  // A reload, and even a new visit of /home, resumes at the saved step.
  await page.reload();
  await expect(heading(page, 'Assign Permissions to Your Role')).toBeVisible();
  await page.goto(`${tenant.url}/home`);
  await expect(page).toHaveURL(/\/second-step$/);
  await expect(heading(page, 'Assign Permissions to Your Role')).toBeVisible();

  await expect(page.getByRole('button', { name: 'Site Managers' })).toBeVisible();
  await expectAccessible(page, 'onboarding step 2');
  await page.getByRole('textbox', { name: /^Permission Name/ }).fill('reports:export');
  await saveAndContinue(page).click();
  await expect(page).toHaveURL(/\/third-step$/);
  await expect(heading(page, 'Create Your First User')).toBeVisible();

  // Going back shows what was saved; going on again keeps it instead of creating another.
  await page.getByRole('button', { name: 'Go back' }).click();
  await expect(page).toHaveURL(/\/second-step$/);
  await expect(page.getByRole('textbox', { name: /^Permission Name/ })).toHaveValue(
    'reports:export',
  );
  await saveAndContinue(page).click();
  await expect(page).toHaveURL(/\/third-step$/);

  // Step 3/3: the user, invited with the new role.
  const email = `rita.runway@${tenant.domain}`;
  await page.getByRole('textbox', { name: /^First name/ }).fill('Rita');
  await page.getByRole('textbox', { name: /^Last name/ }).fill('Runway');
  await page.getByRole('textbox', { name: /^E-mail/ }).fill(email);
  await expect(page.getByRole('combobox', { name: /^Assign Role/ })).toHaveValue('Site Managers');
  await chooseOption(page, 'Status', 'Inactive');
  await expectAccessible(page, 'onboarding step 3');
  await saveAndContinue(page).click();

  await expect(page).toHaveURL(/\/complete$/);
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();
  await expect(heading(page, 'Setup Complete!')).toBeVisible();

  // What the wizard created really exists, once each.
  const permissions = (await rows<Permission>(tenant, 'permissions')).filter(
    (p) => p.name === 'reports:export',
  );
  expect(permissions).toHaveLength(1);
  expect(permissions[0]!.roleIds).toEqual([role!.id]);
  const user = (await rows<User>(tenant, 'users', 'email')).find((u) => u.email === email);
  expect(user, 'step 3 invited the user').toBeDefined();
  expect(user).toMatchObject({
    firstName: 'Rita',
    lastName: 'Runway',
    roleId: role!.id,
    status: 'inactive',
    invited: true,
  });
  const progress = await tenant.api<Onboarding>('GET', '/onboarding');
  expect(progress).toMatchObject({ completed: true, shouldOpen: false });

  await page.getByRole('button', { name: 'Go to dashboard' }).click();
  await expectSignedIn(page, '/home');

  // The next sign-in lands on /home and stays there.
  await logoutButton(page).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, tenant.admin);
  await expectSignedIn(page, '/home');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  // The link shows once the progress has loaded: by then the wizard would have opened.
  await expect(page.getByRole('link', { name: 'Open setup guide' })).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);
});

test('a failing step shows the message and keeps the input', async ({ page, freshTenant }) => {
  const tenant = await freshTenant({ onboarding: 'pending' });
  await openSignIn(page, tenant.url);
  await signIn(page, tenant.admin);
  await expect(page).toHaveURL(/\/welcome$/);
  await page.getByRole('button', { name: 'Get started' }).click();

  // Nothing typed: the contract's message, nothing sent.
  await saveAndContinue(page).click();
  await expect(page.getByText('Enter a name.')).toBeVisible();

  // A name taken by a built-in role: the server's answer; the input stays.
  const roleName = page.getByRole('textbox', { name: /^Role Name/ });
  await roleName.fill('Admin');
  await saveAndContinue(page).click();
  await expect(page.getByText('A role with this name already exists.')).toBeVisible();
  await expect(page).toHaveURL(/\/first-step$/);
  await expect(roleName).toHaveValue('Admin');

  await roleName.fill('Dispatchers');
  await saveAndContinue(page).click();
  await expect(page).toHaveURL(/\/second-step$/);

  // An invalid permission name is refused before sending; Logout ends the session.
  await page.getByRole('textbox', { name: /^Permission Name/ }).fill('reports export');
  await saveAndContinue(page).click();
  await expect(
    page.getByText('Use letters, digits and : _ - . only, e.g. reports:export.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('Skip stops the wizard from opening by itself', async ({ page, freshTenant }) => {
  const tenant = await freshTenant({ onboarding: 'pending' });
  await openSignIn(page, tenant.url);
  await signIn(page, tenant.admin);
  await expect(page).toHaveURL(/\/welcome$/);
  await page.getByRole('button', { name: 'Skip' }).click();
  await expectSignedIn(page, '/home');
  expect(await tenant.api<Onboarding>('GET', '/onboarding')).toMatchObject({
    skipped: true,
    shouldOpen: false,
  });

  // It can still be reopened from Home.
  await page.getByRole('link', { name: 'Open setup guide' }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await page.getByRole('button', { name: 'Get started' }).click();
  await expect(heading(page, 'Create Your First Role')).toBeVisible();
});
