import { expectAccessible } from '../axe';
import { expect, test, type FreshTenant, type Page } from '../fixtures';
import { dialog, openSignedIn } from '../pages';

/**
 * The home dashboard: the tenant's figures and charts, in the interface
 * language, updated live from the events stream.
 */
test.describe.configure({ timeout: 90_000 });

const figure = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const table = (page: Page, name: string) => page.getByRole('table', { name, exact: true });

/** Two projects of one owner, in Switzerland and Germany: 1,500.50 in all. */
async function seedProjects(tenant: FreshTenant) {
  const owner = await tenant.createUser({ firstName: 'Olga', lastName: 'Owner', role: 'Admin' });
  await tenant.createProject({
    name: 'Runway',
    budget: '1000.25',
    country: 'CH',
    ownerId: owner.id,
  });
  await tenant.createProject({
    name: 'Terminal',
    budget: '500.25',
    country: 'DE',
    ownerId: owner.id,
  });
}

test('shows the figures, charts and recent activity, and follows changes live', async ({
  page,
  browser,
  freshTenant,
}) => {
  const tenant = await freshTenant();
  await seedProjects(tenant);
  await openSignedIn(page, tenant);

  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(figure(page, 'Projects')).toContainText('2');
  await expect(figure(page, 'Total budget')).toContainText('1,500.50');
  // The administrator has a password; Olga is invited.
  await expect(figure(page, 'Active users')).toContainText('1');
  await expect(figure(page, 'Invited users')).toContainText('1');

  for (const chart of [
    'Budget by country',
    'Projects per owner',
    'Sign-ins per day (last 30 days)',
    'Users by role',
  ]) {
    await expect(page.getByRole('heading', { level: 2, name: chart })).toBeVisible();
  }
  const budgets = table(page, 'Budget by country');
  await expect(budgets.getByRole('row', { name: /Switzerland/ })).toContainText('1,000.25');
  await expect(budgets.getByRole('row', { name: /Germany/ })).toContainText('500.25');
  await expect(table(page, 'Projects per owner').getByRole('row', { name: /Olga/ })).toContainText(
    '2',
  );
  await expect(table(page, 'Users by role').getByRole('row', { name: /Admin/ })).toContainText('2');
  const activity = page.getByRole('region', { name: 'Recent activity' });
  await expect(activity).toContainText('created the project “Terminal”');
  await expect(activity.locator('time').first()).toBeVisible();

  // Another administrator adds a project in a second browser: the figure follows, no reload.
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await openSignedIn(second, tenant, '/dashboard/projects');
    await second.getByRole('button', { name: 'Add new project' }).click();
    const add = dialog(second, 'Add new project');
    await add.getByRole('textbox', { name: /^Project name/ }).fill('Apron');
    await add.getByRole('textbox', { name: /^Project number/ }).fill('P-3');
    await add.getByRole('textbox', { name: /^Project budget/ }).fill('99.50');
    await add.getByRole('button', { name: 'Save project', exact: true }).click();
    await expect(add).toBeHidden();
  } finally {
    await other.close();
  }
  await expect(figure(page, 'Projects')).toContainText('3');
  await expect(figure(page, 'Total budget')).toContainText('1,600.00');
  await expect(activity).toContainText('created the project “Apron”');
});

test('numbers, countries and dates follow the interface language', async ({
  page,
  freshTenant,
}) => {
  const tenant = await freshTenant();
  await seedProjects(tenant);
  await page.addInitScript(() => window.localStorage.setItem('language', 'de'));
  await openSignedIn(page, tenant);

  await expect(page.getByRole('heading', { level: 1, name: 'Startseite' })).toBeVisible();
  await expect(figure(page, 'Gesamtbudget')).toContainText('1.500,50');
  const budgets = table(page, 'Budget nach Land');
  await expect(budgets.getByRole('row', { name: /Schweiz/ })).toContainText('1.000,25');
  await expect(budgets.getByRole('row', { name: /Deutschland/ })).toBeVisible();
  // The last of the 30 days is today (UTC), e.g. "22. Nov."
  const today = new Intl.DateTimeFormat('de', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date());
  await expect(table(page, 'Anmeldungen pro Tag (letzte 30 Tage)')).toContainText(today);
  await expect(page.getByRole('region', { name: 'Letzte Aktivitäten' })).toContainText(
    'hat erstellt: Projekt „Terminal“',
  );
});

test('a new tenant sees friendly empty charts', async ({ page, freshTenant }) => {
  const tenant = await freshTenant();
  await openSignedIn(page, tenant);
  await expect(figure(page, 'Projects')).toContainText('0');
  await expect(figure(page, 'Total budget')).toContainText('0.00');
  await expect(
    page.getByText('No projects yet. Budgets show here once projects are added.'),
  ).toBeVisible();
  await expect(page.getByText('No project has an owner yet.')).toBeVisible();
  await expectAccessible(page, 'home dashboard, empty tenant');
});
