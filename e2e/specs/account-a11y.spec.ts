import {
  expect,
  expectCombo,
  prepare,
  seeded,
  signInWithTokens,
  test,
  text,
  type Combo,
  type Page,
} from '../a11y-matrix';
import { expectAccessible } from '../axe';
import type { E2eEnv } from '../env';
import type { FreshTenant } from '../tenant-fixture';

/**
 * axe's full rule set on the account page in every language, and on the tenant's settings and
 * the users' security dialog in English (their texts come from the same kind of files, and the
 * languages' own risks show on the account page, the largest of them). English in the dark
 * scheme, where contrast differs most; the others light. The worker's tenant is only read: the
 * flows that change an account run on tenants of their own (account-security.spec.ts).
 */

/** The first paint of a screen on a busy 2-core machine can pass the default 10 s. */
const FIRST_PAINT = { timeout: 30_000 };

async function openAsAdmin(page: Page, env: E2eEnv, tenant: FreshTenant, path: string) {
  await signInWithTokens(page, env, tenant.name, tenant.admin);
  await page.goto(`${tenant.url}${path}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible(FIRST_PAINT);
}

const accountCombos: Combo[] = [
  { language: 'en', theme: 'dark' },
  { language: 'de', theme: 'light' },
  { language: 'fr', theme: 'light' },
  { language: 'it', theme: 'light' },
];

for (const combo of accountCombos) {
  const { language, theme } = combo;
  test(`account page (${language}, ${theme}): no serious axe violation`, async ({
    page,
    env,
    seededTenant,
  }) => {
    // One analysis of a whole screen takes seconds on a loaded 2-core machine.
    test.setTimeout(90_000);
    await prepare(page, combo);
    await openAsAdmin(page, env, seededTenant, '/account');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      text(language, 'account:title'),
    );
    // Every section has its data: the profile's address, the app's status, the sessions.
    await expect(
      page.getByRole('textbox', { name: text(language, 'account:profile.email') }),
    ).toHaveValue(seededTenant.admin.email);
    await expect(
      page.getByRole('button', { name: text(language, 'account:totp.setUp') }),
    ).toBeVisible();
    await expect(page.getByText(text(language, 'account:passkeys.empty'))).toBeVisible();
    await expect(page.getByText(text(language, 'sessions:thisDevice'))).toBeVisible();
    await expectCombo(page, combo);
    await expectAccessible(page, `account page (${language}, ${theme})`);
  });
}

test('settings page (en, light): no serious axe violation', async ({ page, env, seededTenant }) => {
  test.setTimeout(90_000);
  const combo: Combo = { language: 'en', theme: 'light' };
  await prepare(page, combo);
  await openAsAdmin(page, env, seededTenant, '/settings');
  await expect(page.getByRole('radio', { name: 'Optional' })).toBeVisible();
  await expectCombo(page, combo);
  await expectAccessible(page, 'settings page (en, light)');
});

test("users: a user's sessions and security (en, dark): no serious axe violation", async ({
  page,
  env,
  seededTenant,
}) => {
  test.setTimeout(90_000);
  const combo: Combo = { language: 'en', theme: 'dark' };
  await prepare(page, combo);
  await openAsAdmin(page, env, seededTenant, '/dashboard/users');
  const name = `${seeded.user.firstName} ${seeded.user.lastName}`;
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click(FIRST_PAINT);
  await page.getByRole('menuitem', { name: 'Sessions and security' }).click();
  const dialog = page.getByRole('dialog', { name: `Sessions and security: ${name}` });
  await expect(dialog.getByText('No open sessions.')).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCount(0);
  // A dialog fading in is read as low contrast: wait until it is fully opaque.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll('.MuiDialog-container')].every(
          (layer) => getComputedStyle(layer).opacity === '1',
        ),
      ),
    )
    .toBe(true);
  await expectCombo(page, combo);
  await expectAccessible(page, "user's sessions and security (en, dark)");
});
