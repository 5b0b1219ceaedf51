import { readFile } from 'node:fs/promises';
import { paths } from '../../apps/web/src/lib/paths';
import { expect, test } from '../fixtures';
import { openScreen, openSignedIn } from '../pages';

/**
 * Export CSV on the Users screen: the file holds what the filtered, sorted list shows, every
 * matching user and no other, in the list's order, as a spreadsheet reads it safely.
 */
test('the users list, searched and sorted, exports as the CSV file it shows', async ({
  page,
  freshTenant,
}) => {
  test.setTimeout(90_000);
  const tenant = await freshTenant();
  const lastNames = ['Lovelace', 'Lovelace', 'Lovelace', '=SUM(A1)'];
  for (const [i, lastName] of lastNames.entries()) {
    await tenant.createUser({
      firstName: `Ada${i}`,
      lastName,
      email: `ada${i}.export@${tenant.domain}`,
    });
  }
  await tenant.createUser({ firstName: 'Grace', lastName: 'Hopper' });

  await openScreen(page, tenant, `${paths.users}?sort=email.desc`, 'Users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill('.export@');
  const grid = page.getByRole('grid', { name: 'Users' });
  await expect(grid.getByRole('row', { name: /ada0\.export@/ })).toBeVisible();
  await expect(grid.getByRole('row', { name: /Grace Hopper/ })).toBeHidden();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe('E-mail,First name,Last name,Role,Status,Invited,Created');
  // By e-mail, descending, as the list was sorted; the formula as text.
  expect(lines.slice(1, -1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
    `ada3.export@${tenant.domain},Ada3,'=SUM(A1)`,
    `ada2.export@${tenant.domain},Ada2,Lovelace`,
    `ada1.export@${tenant.domain},Ada1,Lovelace`,
    `ada0.export@${tenant.domain},Ada0,Lovelace`,
  ]);
  expect(lines.at(-1)).toBe('');
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
});

/**
 * In German the file is separated by `;`, as German Excel splits a double-clicked file, and a
 * name holding a `;` and a formula (what anyone signing up may choose) stays one cell of text.
 */
test('the German console exports with ";", a name with ";" and a formula as one text cell', async ({
  page,
  freshTenant,
}) => {
  test.setTimeout(90_000);
  const tenant = await freshTenant();
  const email = `eve.export@${tenant.domain}`;
  await tenant.createUser({ firstName: 'Eve X;=2+3;', lastName: 'Probe', email });
  await page.addInitScript(() => window.localStorage.setItem('language', 'de'));
  await openSignedIn(page, tenant, paths.users);
  await expect(page.getByRole('heading', { level: 1, name: 'Benutzer' })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV exportieren' }).click();
  const bytes = await readFile((await (await downloading).path())!);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe('E-Mail;Vorname;Nachname;Rolle;Status;Eingeladen;Erstellt');
  expect(lines.find((line) => line.startsWith(email))).toContain(`${email};"Eve X;'=2+3;";Probe;`);
});
