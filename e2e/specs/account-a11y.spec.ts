import {
  expect,
  everyLanguage,
  expectCombo,
  exactly,
  seeded,
  test,
  text,
  type Language,
  type Page,
} from '../a11y-matrix';
import { expectAccessible, settled } from '../axe';
import type { E2eEnv } from '../env';
import type { FreshTenant } from '../tenant-fixture';

/**
 * axe's full rule set on the screens of second factors and sessions, each in every language:
 * the account page, the tenant's settings as an administrator may change them, and the Users
 * screen's sessions-and-security dialog. One analysis per test (an analysis with its page load
 * takes seconds on a loaded 2-core machine), English in the dark scheme, where contrast differs
 * most, the others light. The worker's tenant is only read: the flows that change an account
 * run on tenants of their own (account-security.spec.ts).
 */

/** The first paint of a screen on a busy 2-core machine can pass the default 10 s. */
const FIRST_PAINT = { timeout: 30_000 };

interface Context {
  language: Language;
  env: E2eEnv;
  tenant: FreshTenant;
}

interface Screen {
  name: string;
  /** Navigates (the combination is set already) and waits until every part has its data. */
  open(page: Page, context: Context): Promise<void>;
}

/** The page's context holds the administrator's session (a11y-matrix.ts, `comboPage`). */
async function openAsAdmin(page: Page, { tenant }: Context, path: string) {
  await page.goto(`${tenant.url}${path}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible(FIRST_PAINT);
}

const screens: Screen[] = [
  {
    name: 'account page',
    async open(page, context) {
      const { language, tenant } = context;
      await openAsAdmin(page, context, '/account');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        text(language, 'account:title'),
      );
      // Every section has its data: the profile's address, the app's status, the sessions.
      await expect(
        page.getByRole('textbox', { name: text(language, 'account:profile.email') }),
      ).toHaveValue(tenant.admin.email);
      await expect(
        page.getByRole('button', { name: text(language, 'account:totp.setUp') }),
      ).toBeVisible();
      await expect(page.getByText(text(language, 'account:passkeys.empty'))).toBeVisible();
      await expect(page.getByText(text(language, 'sessions:thisDevice'))).toBeVisible();
    },
  },
  {
    // As an administrator (tenant:write): the form enabled, with its Save button.
    name: 'settings page',
    async open(page, context) {
      const { language } = context;
      await openAsAdmin(page, context, '/settings');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        text(language, 'settings:title'),
      );
      await expect(
        page.getByRole('radio', { name: text(language, 'settings:security.mfa.optional') }),
      ).toBeEnabled();
      await expect(
        page.getByRole('button', { name: text(language, 'settings:security.save') }),
      ).toBeEnabled();
      await expect(page.getByText(text(language, 'settings:readOnly'))).toHaveCount(0);
    },
  },
  {
    name: "users: a user's sessions and security",
    async open(page, context) {
      const { language } = context;
      await openAsAdmin(page, context, '/dashboard/users');
      const name = `${seeded.user.firstName} ${seeded.user.lastName}`;
      await page
        .getByRole('button', { name: text(language, 'lists:actionsFor', { name }), exact: true })
        .click(FIRST_PAINT);
      await page
        .getByRole('menuitem', { name: exactly(text(language, 'users:sessionsAndSecurity')) })
        .click();
      const dialog = page.getByRole('dialog', {
        name: text(language, 'users:security.title', { name }),
      });
      await expect(dialog.getByText(text(language, 'sessions:none'))).toBeVisible();
      await expect(page.getByRole('menu')).toHaveCount(0);
      await settled(page);
    },
  },
];

for (const combo of everyLanguage) {
  const { language, theme } = combo;
  test.describe(`${language}, ${theme}`, () => {
    for (const screen of screens) {
      test(`${screen.name}: no serious axe violation`, async ({ comboPage, env, seededTenant }) => {
        // A page load and one analysis of a whole screen on a loaded 2-core machine.
        test.setTimeout(90_000);
        const page = await comboPage(combo);
        await screen.open(page, { language, env, tenant: seededTenant });
        await expectCombo(page, combo);
        await expectAccessible(page, `${screen.name} (${language}, ${theme})`);
      });
    }
  });
}
