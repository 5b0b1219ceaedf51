import type { Page as ListPage } from '@tc/contract/paging';
import type { Project } from '@tc/contract/projects';
import { expectAccessible } from '../axe';
import { expect, test, type FreshTenant, type Page } from '../fixtures';
import { dialog, openRowMenu, openScreen } from '../pages';

/**
 * The Projects screen (projects are stored, listed and searched), each test in a
 * tenant of its own. Controls are found by role and the console's words.
 */

// A 1×1 PNG: the smallest image the server's type check accepts.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const logoFile = (buffer = PNG) => ({ name: 'logo.png', mimeType: 'image/png', buffer });

async function openProjects(page: Page, tenant: FreshTenant) {
  await openScreen(page, tenant, '/dashboard/projects');
}

const projectsOf = (tenant: FreshTenant) =>
  tenant.api<ListPage<Project>>('POST', '/projects/page', {
    pageSize: 100,
    listSort: { field: 'name', direction: 0 },
  });

/** The form's controls in the open dialog, by their labels. */
function form(page: Page, title: string) {
  const box = dialog(page, title);
  const text = (name: string) => box.getByRole('textbox', { name: new RegExp(`^${name}`) });
  return {
    box,
    logo: box.locator('input[type="file"]'),
    preview: box.getByRole('img', { name: 'Logo preview' }),
    name: text('Project name'),
    short: text('Short'),
    description: text('Description'),
    owner: box.getByRole('combobox', { name: /^Owner/ }),
    number: text('Project number'),
    budget: text('Project budget'),
    country: box.getByRole('combobox', { name: /^Choose country/ }),
    city: text('City'),
    address: text('Address'),
    postalCode: text('Postal code'),
    people: box.getByRole('combobox', { name: /^Assign people/ }),
    button: (name: string) => box.getByRole('button', { name, exact: true }),
  };
}

/** Opens a select or picker and chooses an option by its text (users show their e-mail too). */
async function choose(page: Page, select: ReturnType<typeof form>['owner'], option: string) {
  await select.click();
  await page.getByRole('option', { name: option }).click();
}

test.describe('projects screen', () => {
  // Each test provisions its own tenant (mail, password) before it starts.
  test.describe.configure({ timeout: 90_000 });

  test('a fresh tenant shows the empty state; "Add your first project" opens the form; axe', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await openProjects(page, tenant);
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Start adding Projects' })).toBeVisible();
    await expect(
      page.getByText(
        "There are no projects in the system yet. Once added, you'll be able to manage, organize, and view detailed information about each project here.",
      ),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add new project' })).toBeVisible();
    await expectAccessible(page, 'projects, empty state');

    await page.getByRole('button', { name: 'Add your first project' }).click();
    const add = form(page, 'Add new project');
    await expect(add.name).toBeFocused();
    await expect(add.people).toHaveAttribute('placeholder', 'Choose one or more');
    await add.country.click();
    // Every contract country plus the empty "Choose" option, named in the UI language.
    await expect(page.getByRole('option')).toHaveCount(250);
    await expect(page.getByRole('option').first()).toHaveText('Choose');
    await page.getByRole('option', { name: 'Switzerland' }).click();
    await expect(add.country).toHaveText('Switzerland');
    await add.button('Cancel').click();
    await expect(add.box).toBeHidden();
  });

  test('add with every field and a logo, then view, edit and delete', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await tenant.createUser({ firstName: 'Ada', lastName: 'Lovelace' });
    await tenant.createUser({ firstName: 'Grace', lastName: 'Hopper' });
    await openProjects(page, tenant);

    await page.getByRole('button', { name: 'Add new project' }).click();
    const add = form(page, 'Add new project');
    await add.logo.setInputFiles(logoFile());
    await expect(add.preview).toBeVisible();
    await add.name.fill('Runway 3');
    await add.short.fill('RW3');
    await add.description.fill('Third runway of the airport');
    await choose(page, add.owner, 'Ada Lovelace');
    await add.number.fill('P-2026-01');
    await add.budget.fill('1250000.50');
    await expect(add.box.getByText('Amount: 1,250,000.50')).toBeVisible();
    await choose(page, add.country, 'Switzerland');
    await add.city.fill('Zürich');
    await add.address.fill('Flughafenstrasse 1');
    await add.postalCode.fill('8058');
    await choose(page, add.people, 'Grace Hopper');
    await choose(page, add.people, 'Ada Lovelace');
    await add.button('Save project').click();
    await expect(add.box).toBeHidden();

    const row = page.getByRole('row', { name: /Runway 3/ });
    await expect(row).toContainText('P-2026-01');
    await expect(row).toContainText('Third runway of the airport');
    await expect(row).toContainText('Ada Lovelace');
    const [stored] = (await projectsOf(tenant)).data;
    expect(stored).toMatchObject({
      name: 'Runway 3',
      short: 'RW3',
      owner: 'Ada Lovelace',
      projectNumber: 'P-2026-01',
      budget: '1250000.50',
      country: 'CH',
      city: 'Zürich',
      address: 'Flughafenstrasse 1',
      postalCode: '8058',
    });
    expect(stored!.people.map((p) => p.name).sort()).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(stored!.logoUrl).toMatch(/^\/api\/v1\.0\/files\//);

    // View: everything shown, nothing editable, no confirm button.
    await (await openRowMenu(page, /Runway 3/)).getByRole('menuitem', { name: 'View' }).click();
    const view = form(page, 'View Project');
    await expect(view.preview).toBeVisible();
    await expect(view.name).toHaveValue('Runway 3');
    await expect(view.name).toBeDisabled();
    await expect(view.budget).toBeDisabled();
    await expect(view.country).toHaveText('Switzerland');
    await expect(view.box.getByText('Amount: 1,250,000.50')).toBeVisible();
    await expect(view.box.getByRole('button', { name: 'Choose logo' })).toBeDisabled();
    await expect(view.box.getByRole('button', { name: /^Save/ })).toHaveCount(0);
    await view.button('Cancel').click();

    // Edit
    await (await openRowMenu(page, /Runway 3/)).getByRole('menuitem', { name: 'Edit' }).click();
    const edit = form(page, 'Edit Project');
    await expect(edit.owner).toHaveValue('Ada Lovelace');
    await edit.name.fill('Runway 3 East');
    await choose(page, edit.owner, 'Grace Hopper');
    await edit.button('Save changes').click();
    await expect(edit.box).toBeHidden();
    await expect(page.getByRole('row', { name: /Runway 3 East/ })).toContainText('Grace Hopper');

    // Delete: the question names the project.
    await (
      await openRowMenu(page, /Runway 3 East/)
    )
      .getByRole('menuitem', { name: 'Delete' })
      .click();
    const remove = dialog(page, 'Delete Project');
    await expect(remove).toContainText(
      'Are you sure you want to delete the project "Runway 3 East"?',
    );
    await remove.getByRole('button', { name: 'Delete project' }).click();
    await expect(remove).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Start adding Projects' })).toBeVisible();
    expect((await projectsOf(tenant)).totalCount).toBe(0);
  });

  test('field messages show before anything is sent', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    await openProjects(page, tenant);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1.0/projects/create')) sent.push(request.url());
    });

    await page.getByRole('button', { name: 'Add new project' }).click();
    const add = form(page, 'Add new project');
    await add.budget.fill('12,5,7');
    await add.button('Save project').click();
    await expect(add.box.getByText('Enter a name.')).toBeVisible();
    await expect(add.box.getByText('Enter a project number.')).toBeVisible();
    await expect(
      add.box.getByText('Enter an amount with at most 14 digits and 2 decimals, like 1250000.50.'),
    ).toBeVisible();
    await expect(add.budget).toHaveAttribute('aria-invalid', 'true');

    // A file that is not an image is refused when chosen.
    await add.logo.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('x'),
    });
    await expect(add.box.getByText('Choose a PNG, JPEG, WebP or GIF image.')).toBeVisible();
    await expect(add.preview).toHaveCount(0);
    expect(sent).toEqual([]);
    await expect(add.box).toBeVisible();
  });

  test('server problems: a duplicate number on its field, a refused logo; input is kept', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await tenant.createProject({ name: 'Terminal 1', projectNumber: 'P-100' });
    await openProjects(page, tenant);

    await page.getByRole('button', { name: 'Add new project' }).click();
    const add = form(page, 'Add new project');
    await add.name.fill('Terminal 2');
    await add.number.fill('P-100');
    await add.button('Save project').click();
    // Projects.service: the tenant's project numbers are unique (409 on projectNumber).
    await expect(add.box.getByText('This project number is already used.')).toBeVisible();
    await expect(add.number).toHaveAttribute('aria-invalid', 'true');
    await expect(add.name).toHaveValue('Terminal 2');

    // The bytes are not an image although the type says PNG: the server answers 415 after
    // the project is saved, and the dialog says so and stays open with the input.
    await add.number.fill('P-200');
    await add.logo.setInputFiles(logoFile(Buffer.from('this is not a picture')));
    await add.button('Save project').click();
    await expect(add.box.getByRole('alert')).toHaveText(
      'The project was saved, but its logo was not: Upload a PNG, JPEG, WebP or GIF image.',
    );
    await expect(add.name).toHaveValue('Terminal 2');
    await expect(add.number).toHaveValue('P-200');

    // A real image then: the same project is updated, not created twice.
    await add.logo.setInputFiles(logoFile());
    await add.button('Save project').click();
    await expect(add.box).toBeHidden();
    const projects = (await projectsOf(tenant)).data;
    expect(projects.map((p) => p.projectNumber).sort()).toEqual(['P-100', 'P-200']);
    expect(projects.find((p) => p.projectNumber === 'P-200')!.logoUrl).not.toBeNull();
  });

  test('pages and sorts 27 projects on the server', async ({ page, freshTenant }) => {
    const tenant = await freshTenant();
    const pad = (n: number) => String(n).padStart(2, '0');
    // Name order is the reverse of number order, so each sort has its own first row.
    for (let batch = 0; batch < 27; batch += 9) {
      await Promise.all(
        Array.from({ length: 9 }, (_, i) => batch + i + 1).map((n) =>
          tenant.createProject({ name: `Project ${pad(n)}`, projectNumber: `N-${pad(28 - n)}` }),
        ),
      );
    }
    await openProjects(page, tenant);
    const firstRow = page.getByRole('row').nth(1);
    await expect(firstRow).toContainText('Project 01');
    await expect(page.getByText(/1–10 of 27/)).toBeVisible();

    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect(firstRow).toContainText('Project 11');
    await expect(page.getByText(/11–20 of 27/)).toBeVisible();
    await expect(page).toHaveURL(/page=2/);

    // Sorting by ID (the project number) asks the server and starts on page 1 again.
    await page.getByRole('columnheader', { name: /^ID/ }).click();
    await expect(page).toHaveURL(/sort=projectNumber\.asc/);
    await expect(firstRow).toContainText('N-01');
    await expect(firstRow).toContainText('Project 27');
    await page.getByRole('columnheader', { name: /^ID/ }).click();
    await expect(page).toHaveURL(/sort=projectNumber\.desc/);
    await expect(firstRow).toContainText('N-27');
    await expect(firstRow).toContainText('Project 01');
  });

  test('the budget is shown in the UI language: 1.250.000,50 in German', async ({
    page,
    freshTenant,
  }) => {
    const tenant = await freshTenant();
    await tenant.createProject({ name: 'Apron', projectNumber: 'A-1', budget: '1250000.50' });
    await openProjects(page, tenant);
    const language = page
      .getByRole('combobox', { name: /language/i })
      .or(page.getByRole('button', { name: /language/i }));
    await language.first().click();
    await page
      .getByRole('option', { name: /deutsch/i })
      .or(page.getByRole('menuitem', { name: /deutsch/i }))
      .first()
      .click();
    await expect(page.getByRole('heading', { name: 'Projekte', level: 1 })).toBeVisible();

    await page.getByRole('row', { name: /Apron/ }).getByRole('button').click();
    await page.getByRole('menuitem').first().click();
    const view = dialog(page, 'Projekt ansehen');
    await expect(view.getByText('Betrag: 1.250.000,50')).toBeVisible();
    await expect(view.getByRole('combobox', { name: /^Land wählen/ })).toBeVisible();
  });
});
