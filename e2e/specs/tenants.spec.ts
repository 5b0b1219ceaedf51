import { expect } from '../fixtures';
import { dialog, openRowMenu } from '../pages';
import { PNG, expectAccessible, field, openTenants, row, test } from './tenants.helpers';

/**
 * The Tenants screen (list and card views), as the super administrator
 * of the master realm. The server is shared with other specs that add and delete tenants, so
 * every tenant here carries the test's own name prefix and each test searches for it.
 */

test.describe('tenants screen', () => {
  // Each test signs in through the form and provisions tenants on a server other specs share.
  test.describe.configure({ timeout: 60_000 });

  test('adds a tenant with its first administrator, who gets the invitation', async ({
    page,
    env,
    mail,
    admin,
  }) => {
    await openTenants(page, env, admin.prefix);
    const name = `${admin.prefix}-new`;
    const adminEmail = `boss@${name}.localhost`;
    await page.getByRole('button', { name: 'Add new' }).click();
    const add = dialog(page, 'Add New Tenant');
    await field(page, /^Name/).fill(name);
    await field(page, /^Domain/).fill(`${name}.localhost`);
    await add.getByLabel('Allow sign-up').check();
    await field(page, /administrator's e-mail/).fill(adminEmail);
    await add.getByRole('button', { name: 'Save tenant' }).click();
    await expect(add).toBeHidden();
    await expect(page.getByText('Saved.')).toBeVisible();
    await expect(row(page, name)).toContainText(`${name}.localhost`);
    await expect(row(page, name)).toContainText('Yes');

    const invitation = await mail.waitFor(adminEmail, /\/newpassword\?token=/);
    expect(mail.link(invitation, '/newpassword')).toContain('token=');
  });

  test('edits a tenant', async ({ page, env, admin }) => {
    const tenant = await admin.create();
    await openTenants(page, env, admin.prefix);
    await (await openRowMenu(page, tenant.name)).getByRole('menuitem', { name: 'Edit' }).click();
    const edit = dialog(page, 'Edit Tenant');
    await expect(field(page, /^Name/)).toHaveValue(tenant.name);
    await expect(field(page, /administrator's e-mail/)).toHaveCount(0);
    await field(page, /^Domain/).fill(`${tenant.name}-renamed.localhost`);
    await edit.getByLabel('Allow sign-up').check();
    await edit.getByRole('button', { name: 'Update tenant' }).click();
    await expect(edit).toBeHidden();
    await expect(row(page, tenant.name)).toContainText(`${tenant.name}-renamed.localhost`);
    await expect(row(page, tenant.name)).toContainText('Yes');
  });

  test('views a tenant: every input disabled, no confirm button', async ({ page, env, admin }) => {
    const tenant = await admin.create();
    await openTenants(page, env, admin.prefix);
    await (await openRowMenu(page, tenant.name)).getByRole('menuitem', { name: 'View' }).click();
    const view = dialog(page, 'View Tenant');
    await expect(field(page, /^Name/)).toHaveValue(tenant.name);
    await expect(field(page, /^Name/)).toBeDisabled();
    await expect(field(page, /^Domain/)).toBeDisabled();
    await expect(view.getByLabel('Allow sign-up')).toBeDisabled();
    await expect(view.getByRole('button', { name: 'Choose logo' })).toBeDisabled();
    await expect(view.getByRole('button', { name: /Save tenant|Update tenant/ })).toHaveCount(0);
    await view.getByRole('button', { name: 'Cancel' }).click();
    await expect(view).toBeHidden();
  });

  test('deletes a tenant after asking', async ({ page, env, admin }) => {
    const tenant = await admin.create();
    await openTenants(page, env, admin.prefix);
    await (await openRowMenu(page, tenant.name)).getByRole('menuitem', { name: 'Delete' }).click();
    const remove = dialog(page, 'Delete Tenant');
    await expect(remove.getByText('Are you sure you want to delete this tenant?')).toBeVisible();
    await remove.getByRole('button', { name: 'Delete tenant' }).click();
    await expect(remove).toBeHidden();
    await expect(page.getByText('Deleted.')).toBeVisible();
    await expect(row(page, tenant.name)).toHaveCount(0);
    expect(await admin.mine()).toEqual([]);
  });

  test('a bad domain is shown on its field before anything is sent', async ({
    page,
    env,
    admin,
  }) => {
    await openTenants(page, env, admin.prefix);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/tenants/create')) sent.push(request.url());
    });
    await page.getByRole('button', { name: 'Add new' }).click();
    await field(page, /^Name/).fill(`${admin.prefix}-bad`);
    await field(page, /^Domain/).fill('not a domain');
    await dialog(page).getByRole('button', { name: 'Save tenant' }).click();
    await expect(field(page, /^Domain/)).toHaveAccessibleDescription(
      'Enter a host name such as acme.example.com.',
    );
    await expect(field(page, /^Domain/)).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);
  });

  test('a domain already taken is answered on its field; the dialog keeps the input', async ({
    page,
    env,
    admin,
  }) => {
    await openTenants(page, env, admin.prefix);
    const name = `${admin.prefix}-dup`;
    const takenDomain = new URL(env.demoUrl).hostname;
    await page.getByRole('button', { name: 'Add new' }).click();
    await field(page, /^Name/).fill(name);
    await field(page, /^Domain/).fill(takenDomain);
    const created = page.waitForResponse((r) => r.url().includes('/tenants/create'));
    await dialog(page).getByRole('button', { name: 'Save tenant' }).click();
    expect((await created).status()).toBe(409);
    await expect(field(page, /^Domain/)).toHaveAccessibleDescription(
      'A tenant with this domain already exists.',
    );
    await expect(dialog(page, 'Add New Tenant')).toBeVisible();
    await expect(field(page, /^Name/)).toHaveValue(name);
    await expect(field(page, /^Domain/)).toHaveValue(takenDomain);
  });

  test('pages and sorts 26 tenants on the server', async ({ page, env, admin }) => {
    test.setTimeout(120_000);
    const suffixes = Array.from({ length: 26 }, (_, i) => String(i + 1).padStart(2, '0'));
    for (let i = 0; i < suffixes.length; i += 6) {
      await Promise.all(suffixes.slice(i, i + 6).map((suffix) => admin.create(suffix)));
    }
    await openTenants(page, env, admin.prefix);
    const grid = page.getByRole('grid', { name: 'Tenants' });
    const firstRow = grid.getByRole('row').nth(1);
    await expect(page.getByText('1–10 of 26')).toBeVisible();
    await expect(firstRow).toContainText(`${admin.prefix}-01`);
    // The number shown is the position in the list, not the id.
    await expect(firstRow.getByRole('gridcell').first()).toHaveText('1');

    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect(page.getByText('11–20 of 26')).toBeVisible();
    await expect(firstRow).toContainText(`${admin.prefix}-11`);
    await expect(firstRow.getByRole('gridcell').first()).toHaveText('11');

    await grid.getByRole('columnheader', { name: 'Name' }).click();
    await expect(grid.getByRole('columnheader', { name: 'Name' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(page).toHaveURL(/sort=name\.desc/);
    await expect(page.getByText('1–10 of 26')).toBeVisible();
    await expect(firstRow).toContainText(`${admin.prefix}-26`);
  });

  test('a search that matches nothing says so in both views', async ({ page, env, admin }) => {
    await openTenants(page, env, `${admin.prefix}-nothing`);
    await expect(page.getByRole('grid', { name: 'Tenants' }).getByText('No rows')).toBeVisible();
    await page.getByRole('button', { name: 'Card view' }).click();
    await expect(page.getByText('No tenant matches this search.')).toBeVisible();
  });

  test('card view, and Log in opens the tenant console on its own domain', async ({
    page,
    env,
    admin,
  }) => {
    const tenant = await admin.create();
    const signInUrl = `http://${tenant.domain}:${env.port}/`;
    await openTenants(page, env, admin.prefix);

    await expect(page.getByRole('columnheader', { name: 'Admin access' })).toBeVisible();
    const listLogin = row(page, tenant.name).getByRole('link', { name: /^Log in/ });
    await expect(listLogin).toHaveAttribute('href', signInUrl);
    await expect(listLogin).toHaveAttribute('target', '_blank');

    await page.getByRole('button', { name: 'Card view' }).click();
    await expect(page).toHaveURL(/view=cards/);
    await expect(page.getByRole('button', { name: 'Card view' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const card = page.getByRole('listitem').filter({ hasText: tenant.name });
    await expect(card.getByRole('heading', { name: tenant.name })).toBeVisible();
    await expect(card.getByRole('link', { name: tenant.domain })).toHaveAttribute(
      'href',
      `http://${tenant.domain}:${env.port}`,
    );
    const login = card.getByRole('link', { name: /^Log in/ });
    await expect(login).toHaveText('Log in');
    await expect(login).toHaveAttribute('href', signInUrl);
    await expect(login).toHaveAttribute('target', '_blank');
    await expect(login).toHaveAttribute('rel', /noopener/);
    await expectAccessible(page, 'tenants, card view');

    const popup = page.waitForEvent('popup');
    await login.click();
    const console = await popup;
    await expect(console).toHaveURL(signInUrl);
    await expect(console.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await console.close();
  });

  test('uploads a logo with a preview; a refused file keeps the dialog and its input', async ({
    page,
    env,
    admin,
  }) => {
    await openTenants(page, env, admin.prefix);
    const name = `${admin.prefix}-logo`;
    const choose = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      const chooser = page.waitForEvent('filechooser');
      await dialog(page)
        .getByRole('button', { name: /^(Choose|Change) logo$/ })
        .click();
      await (await chooser).setFiles(file);
    };

    await page.getByRole('button', { name: 'Add new' }).click();
    await field(page, /^Name/).fill(name);
    await field(page, /^Domain/).fill(`${name}.localhost`);
    // Over the server's 2 MB: refused at once, with the server's words.
    await choose({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(2 * 1024 * 1024 + 1),
    });
    await expect(dialog(page).getByText('The image is larger than 2 MB.')).toBeVisible();
    await expect(dialog(page).getByRole('img', { name: 'Logo preview' })).toHaveCount(0);

    await choose({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(dialog(page).getByRole('img', { name: 'Logo preview' })).toHaveAttribute(
      'src',
      /^blob:/,
    );
    await dialog(page).getByRole('button', { name: 'Save tenant' }).click();
    await expect(dialog(page)).toBeHidden();
    const avatar = row(page, name).locator('img');
    await expect(avatar).toHaveAttribute('src', /^\/api\/v1\.0\/files\/[0-9a-f-]{36}$/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

    // Declared a PNG, but not one: the server refuses it (415) and says why.
    await (await openRowMenu(page, name)).getByRole('menuitem', { name: 'Edit' }).click();
    await field(page, /^Domain/).fill(`${name}-2.localhost`);
    await choose({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await dialog(page).getByRole('button', { name: 'Update tenant' }).click();
    await expect(dialog(page).getByRole('alert')).toHaveText(
      'The tenant was saved, but its logo was not: Upload a PNG, JPEG, WebP or GIF image.',
    );
    await expect(dialog(page, 'Edit Tenant')).toBeVisible();
    await expect(field(page, /^Domain/)).toHaveValue(`${name}-2.localhost`);
    await choose({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await dialog(page).getByRole('button', { name: 'Update tenant' }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(row(page, name)).toContainText(`${name}-2.localhost`);
  });
});
