import type { MailQueueEntry } from '@tc/contract/mail-queue';
import type { Page as ListPage } from '@tc/contract/paging';
import type { Tenant } from '@tc/contract/tenants';
import { expect } from '../fixtures';
import { UNDELIVERABLE_PREFIX } from '../global-setup';
import { expectSignedIn, navigation, openSignIn, signIn } from '../pages';
import { expectAccessible, random, test } from './tenants.helpers';

/**
 * The undelivered mail screen, as the super administrator of the master realm. The test SMTP
 * server refuses recipients starting with UNDELIVERABLE_PREFIX, and the e2e server gives up on
 * a message after two quick tries (global-setup.ts), so a tenant whose invited administrator
 * has such an address leaves a dead invitation: the same path as an SMTP server that refuses.
 */

test.describe('undelivered mail screen', () => {
  test.describe.configure({ timeout: 60_000 });

  test('the super administrator opens it from the navigation, sees a dead invitation and filters by status', async ({
    page,
    env,
    admin,
  }) => {
    const name = `${admin.prefix}-mail`;
    const adminEmail = `${UNDELIVERABLE_PREFIX}${random()}@${name}.localhost`;
    await admin.call<Tenant>('POST', '/tenants/create', {
      name,
      domain: `${name}.localhost`,
      adminEmail,
    });
    // Refused twice, the invitation is dead within a second or two.
    await expect
      .poll(
        async () => {
          const queue = await admin.call<ListPage<MailQueueEntry>>('POST', '/mail-queue/page', {
            filter: { search: adminEmail },
          });
          return queue.data.find((entry) => entry.toAddress === adminEmail)?.status;
        },
        { timeout: 30_000, intervals: [250] },
      )
      .toBe('dead');

    await openSignIn(page, env.adminUrl);
    await signIn(page, env.superAdmin);
    await expectSignedIn(page, '/dashboard/tenants');
    await navigation(page).getByRole('link', { name: 'Undelivered mail' }).click();
    await expect(page).toHaveURL(/\/dashboard\/mail-queue$/);
    await expect(page.getByRole('heading', { name: 'Undelivered mail', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add new' })).toHaveCount(0);

    await page.getByRole('searchbox', { name: 'Search recipient or subject' }).fill(adminEmail);
    const row = page.getByRole('row', { name: new RegExp(adminEmail) });
    await expect(row).toContainText(name);
    await expect(row).toContainText('Dead');
    await expect(row).toContainText('550');

    const status = page.getByRole('combobox', { name: 'Status' });
    await status.click();
    await page.getByRole('option', { name: 'Retrying' }).click();
    await expect(page).toHaveURL(/status=pending/);
    await expect(row).toHaveCount(0);
    await status.click();
    await page.getByRole('option', { name: 'Dead' }).click();
    await expect(page).toHaveURL(/status=dead/);
    await expect(row).toContainText('Dead');

    await expectAccessible(page, 'undelivered mail, a dead message');
  });

  test('a tenant administrator has no entry for it, and is sent home from its address', async ({
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    await expect(navigation(page).getByRole('link', { name: 'Home', exact: true })).toBeVisible();
    await expect(navigation(page).getByRole('link', { name: 'Undelivered mail' })).toHaveCount(0);
    await page.goto(`${env.demoUrl}/dashboard/mail-queue`);
    await expectSignedIn(page, '/home');
  });
});
