import { paths } from '../../apps/web/src/lib/paths';
import { expectAccessible } from '../axe';
import { expect, test } from '../fixtures';
import { openScreen } from '../pages';

/**
 * Importing users from a CSV file: the Users screen's Import button, the upload, the columns
 * suggested from a German header, the preview of each bad row's problem, apply, and the new
 * users in the list.
 */
test('a CSV file with some bad rows: preview shows them, apply creates the good ones', async ({
  page,
  freshTenant,
}) => {
  test.setTimeout(90_000);
  const tenant = await freshTenant();
  const d = tenant.domain;
  const csv = [
    'Vorname;Nachname;E-Mail;Rolle',
    `Ada;Importiert;ada.import@${d};Member`,
    `Alan;Importiert;alan.import@${d};Member`,
    `Bad;Address;not-an-address;Member`,
    `No;Role;norole.import@${d};Wizard`,
  ].join('\n');

  await openScreen(page, tenant, paths.users, 'Users');
  await page.getByRole('link', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Import users' })).toBeVisible();

  await page.getByLabel('Choose CSV file').setInputFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await expect(
    page.getByText('The file has 4 rows. Choose the column of each field.'),
  ).toBeVisible();
  await expect(page.getByRole('combobox', { name: /E-mail/ })).toHaveText('E-Mail');
  await page.getByRole('button', { name: 'Check rows' }).click();

  await expect(page.getByText('2 ready')).toBeVisible();
  await expect(page.getByText('2 with errors')).toBeVisible();
  const table = page.getByRole('table', { name: 'Rows of the file' });
  await expect(table.getByText('Enter a valid e-mail address.')).toBeVisible();
  await expect(table.getByText('There is no role “Wizard”.')).toBeVisible();
  await expectAccessible(page, 'the import preview');

  await page.getByRole('button', { name: 'Apply' }).click();
  const confirm = page.getByRole('dialog', { name: 'Create the users?' });
  await confirm.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Created: 2. Skipped (already exist): 0. Failed: 2.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download result (CSV)' })).toBeEnabled();

  await page.getByRole('link', { name: 'Go to users' }).click();
  const grid = page.getByRole('grid', { name: 'Users' });
  await expect(grid.getByRole('row', { name: /ada\.import@/ })).toBeVisible();
  await expect(grid.getByRole('row', { name: /alan\.import@/ })).toBeVisible();
  await expect(grid.getByRole('row', { name: /norole\.import@/ })).toHaveCount(0);
});
