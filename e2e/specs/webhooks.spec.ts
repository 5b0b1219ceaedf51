import { WebhookReceiver } from '../../apps/server/src/test/webhook-receiver';
import { expectAccessible, settled } from '../axe';
import { expect, test } from '../fixtures';
import { dialog, openRowMenu, openScreen } from '../pages';

/**
 * Webhooks as a tenant administrator: an endpoint pointing at a receiver this spec starts on
 * loopback (the e2e server allows private addresses, global-setup.ts), its secret shown once,
 * a test event, and its delivery succeeding in the log, signed with that secret.
 */
test('an administrator adds an endpoint, sends a test event and sees it delivered', async ({
  page,
  freshTenant,
}) => {
  test.setTimeout(90_000);
  const receiver = await new WebhookReceiver().start();
  try {
    const tenant = await freshTenant();
    await openScreen(page, tenant, '/dashboard/webhooks', 'Webhooks');

    await page.getByRole('button', { name: 'Add your first endpoint' }).click();
    const add = dialog(page, 'Add endpoint');
    await add.getByRole('textbox', { name: /Endpoint URL/ }).fill(receiver.url);
    await add.getByRole('textbox', { name: 'Description' }).fill('End-to-end receiver');
    await add.getByRole('button', { name: 'Save endpoint' }).click();

    const shown = dialog(page, 'Signing secret');
    await expect(shown).toBeVisible();
    const secret = await shown.getByRole('textbox').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toHaveCount(0);

    const menu = await openRowMenu(page, new RegExp(receiver.url.replace(/[/.]/g, '\\$&')));
    await menu.getByRole('menuitem', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.of('webhook.test').length, { timeout: 30_000 }).toBe(1);
    expect(WebhookReceiver.verifies(secret, receiver.of('webhook.test')[0]!)).toBe(true);

    const again = await openRowMenu(page, new RegExp(receiver.url.replace(/[/.]/g, '\\$&')));
    await again.getByRole('menuitem', { name: 'Deliveries' }).click();
    const log = dialog(page, `Deliveries to ${receiver.url}`);
    const delivered = log.getByRole('row', { name: /webhook\.test/ });
    await expect(delivered).toContainText('Succeeded', { timeout: 30_000 });
    await expect(delivered).toContainText('200');
    await settled(page);
    await expectAccessible(page, 'webhook delivery log');
  } finally {
    await receiver.close();
  }
});
