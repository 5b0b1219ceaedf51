import type { Project } from '@tc/contract/projects';
import { paths } from '../../apps/web/src/lib/paths';
import { expect, test, type FreshTenant, type Page } from '../fixtures';
import { openScreen } from '../pages';
import { expectAccessible } from './tenants.helpers';

/**
 * The Audit log screen: a project renamed through the API shows up as an update, found by the
 * screen's filters, and its entry's drawer shows the rename as a diff.
 */

/** A project, then its rename: the update entry the tests look for. */
async function renamedProject(tenant: FreshTenant) {
  const project = await tenant.createProject({ name: 'Apollo', city: 'Basel' });
  await tenant.api<Project>('PUT', '/projects/update', {
    id: project.id,
    name: 'Artemis',
    projectNumber: project.projectNumber,
    budget: '0',
    city: 'Basel',
  });
  return project;
}

/** Filters the screen to project updates and opens the project's entry, by click or Enter. */
async function openRenameEntry(page: Page, project: Project, by: 'click' | 'Enter') {
  await page.getByRole('combobox', { name: 'Entity' }).click();
  await page.getByRole('option', { name: 'Projects' }).click();
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Update' }).click();
  await expect(page).toHaveURL(/entity=projects/);
  await expect(page).toHaveURL(/action=update/);
  const grid = page.getByRole('grid', { name: 'Audit log' });
  const row = grid.getByRole('row', { name: new RegExp(project.id) });
  // The grid keeps showing the previous answer (the project's create and update) until the
  // filtered one arrives: one row of the project means the filters have been applied.
  await expect(row).toHaveCount(1);
  await expect(grid.getByRole('row', { name: /Create/ })).toHaveCount(0);
  const cell = row.getByRole('gridcell', { name: project.id });
  if (by === 'click') {
    await cell.click();
  } else {
    await cell.focus();
    await page.keyboard.press('Enter');
  }
  const drawer = page.getByRole('dialog', { name: 'Audit entry' });
  await expect(drawer).toBeVisible();
  return drawer;
}

test('a renamed project is found by the filters and its entry shows the rename', async ({
  page,
  freshTenant,
}) => {
  test.setTimeout(90_000);
  const tenant = await freshTenant();
  const project = await renamedProject(tenant);
  await openScreen(page, tenant, paths.auditLog, 'Audit log');

  // Today's range holds the change; a range of yesterday does not.
  const today = await page.evaluate(() => new Date().toLocaleDateString('sv'));
  await page.getByLabel('From').fill(today);
  await expect(page).toHaveURL(new RegExp(`fromDate=${today}`));
  const drawer = await openRenameEntry(page, project, 'Enter');

  const changed = drawer.getByRole('table', { name: 'Changed fields' });
  await expect(changed.getByRole('row', { name: /name\s*Apollo\s*Artemis/ })).toBeVisible();
  await expect(changed.getByRole('row', { name: /city/ })).toHaveCount(0);
  await drawer.getByRole('button', { name: /Show \d+ unchanged fields?/ }).click();
  await expect(drawer.getByRole('table', { name: 'Unchanged fields' })).toContainText('Basel');
  await expect(drawer).toContainText(tenant.admin.email);

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  // The focus is back on the row's cell it was opened from.
  await expect(page.getByRole('gridcell', { name: project.id })).toBeFocused();

  await page.getByLabel('To (inclusive)').fill('2000-01-01');
  await expect(page.getByText('Choose a day on or after the start.')).toBeVisible();
  await page.getByLabel('From').fill('1999-12-31');
  await expect(page.getByRole('grid', { name: 'Audit log' })).toContainText(/No (rows|results)/i);
});

test('the audit log with an entry open is accessible', async ({ page, freshTenant }) => {
  test.setTimeout(90_000);
  const tenant = await freshTenant();
  const project = await renamedProject(tenant);
  await openScreen(page, tenant, paths.auditLog, 'Audit log');
  const drawer = await openRenameEntry(page, project, 'click');
  await drawer.getByRole('button', { name: /Show \d+ unchanged fields?/ }).click();
  await expect(drawer.getByRole('table', { name: 'Unchanged fields' })).toBeVisible();
  await expectAccessible(page, 'audit log, an entry open');
});
