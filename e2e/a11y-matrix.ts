import { readFileSync } from 'node:fs';
import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import { e2eEnv, type E2eEnv } from './env';
import { mailbox } from './fixtures';
import { placeSession } from './pages';
import { tenantFactory, type FreshTenant } from './tenant-fixture';

/**
 * Helpers of the accessibility matrix (specs/a11y-*.spec.ts): the interface language and
 * colour scheme set before the first page load, sign-in without the form, the interface's own
 * words in each language, and one tenant per worker with a row of every kind to open dialogs on.
 */

export const languages = ['en', 'de', 'fr', 'it'] as const;
export type Language = (typeof languages)[number];
export type Theme = 'light' | 'dark';
export interface Combo {
  language: Language;
  theme: Theme;
}

/**
 * Each language once: English in the dark scheme, where contrast differs most, the others
 * light. For screens checked in every language rather than shared out between them.
 */
export const everyLanguage: readonly Combo[] = [
  { language: 'en', theme: 'dark' },
  { language: 'de', theme: 'light' },
  { language: 'fr', theme: 'light' },
  { language: 'it', theme: 'light' },
];

type Json = { [key: string]: string | Json };
const bundles = new Map<string, Json>();

/**
 * The console's text for `namespace:key.path` (or `key.path` in the main bundle) in a language,
 * with {{placeholders}} filled: locators use the words a user of that language sees.
 */
export function text(language: Language, key: string, values: Record<string, string> = {}) {
  const [namespace, path] = key.includes(':') ? key.split(':') : ['', key];
  const file = namespace ? `${namespace}/${language}.json` : `${language}.json`;
  let bundle = bundles.get(file);
  if (!bundle) {
    const url = new URL(`../apps/web/src/locales/${file}`, import.meta.url);
    bundle = JSON.parse(readFileSync(url, 'utf8')) as Json;
    bundles.set(file, bundle);
  }
  let found: string | Json | undefined = bundle;
  for (const part of path!.split('.')) found = typeof found === 'object' ? found[part] : undefined;
  if (typeof found !== 'string') throw new Error(`no text ${key} in ${file}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

/** Exactly this text, as a name pattern (the texts may hold regular-expression characters). */
export const exactly = (value: string) =>
  new RegExp(`^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);

/**
 * Language and scheme as the console keeps them (i18next's `language` key, MUI's `mui-mode`),
 * written before any script of the page runs, and the system preference to match.
 */
export async function prepare(page: Page, { language, theme }: Combo) {
  await page.emulateMedia({ colorScheme: theme });
  await page.addInitScript(
    ([lng, mode]) => {
      localStorage.setItem('language', lng);
      localStorage.setItem('mui-mode', mode);
    },
    [language, theme] as const,
  );
}

/** Waits until the page shows the combination: its html lang and its background. */
export async function expectCombo(page: Page, { language, theme }: Combo) {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
    .toBe(theme === 'dark' ? 'rgb(18, 18, 18)' : 'rgb(255, 255, 255)');
}

/** The rows every worker's tenant holds, by the names the screens show. */
export const seeded = {
  role: 'Auditors',
  permission: 'reports:export',
  user: { firstName: 'Una', lastName: 'Example' },
  project: 'Harbour Bridge',
  /** An application of its own beside the built-in one, which offers no Delete. */
  client: 'Harbour Portal',
} as const;

export interface MatrixFixtures {
  env: E2eEnv;
}
export interface MatrixWorkerFixtures {
  /** A tenant of this worker's (onboarding done) with one row of every kind; read only. */
  seededTenant: FreshTenant;
  /**
   * This worker's page in a combination: one browser context per combination, signed in on
   * the tenant's console as its administrator and on the super administrator's console.
   */
  comboPage: (combo: Combo) => Promise<Page>;
}

/**
 * The tenant is made once per worker, not per test: the tests only open screens and dialogs
 * and never confirm one, so they can share it, and a fresh tenant costs seconds each.
 */
export const test = base.extend<MatrixFixtures, MatrixWorkerFixtures>({
  // eslint-disable-next-line no-empty-pattern
  env: async ({}, use) => use(e2eEnv()),
  seededTenant: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const env = e2eEnv();
      const factory = tenantFactory(env, mailbox(env));
      try {
        const tenant = await factory.create();
        await tenant.createRole({ name: seeded.role, permissions: ['users:read'] });
        await tenant.createPermission({ name: seeded.permission });
        await tenant.createUser({ ...seeded.user, role: 'Member' });
        await tenant.createProject({ name: seeded.project });
        await tenant.api('POST', '/clients/create', {
          name: seeded.client,
          clientId: 'harbour-portal',
          type: 'confidential',
          redirectUris: ['https://portal.example.com/callback'],
          grantTypes: ['authorization_code', 'refresh_token'],
        });
        await use(tenant);
      } finally {
        await factory.disposeAll();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  // The tests only open screens and dialogs, each from a fresh page load, so one page per
  // combination serves all of a worker's tests in it: a new context, a sign-in and the
  // console's files fetched and compiled again for each of the matrix's tests were about a
  // third of what a test cost. A failed test leaves nothing behind that the next page load keeps.
  comboPage: [
    async ({ browser, seededTenant }, use) => {
      const env = e2eEnv();
      const pages = new Map<string, Promise<Page>>();
      const contexts: BrowserContext[] = [];
      await use((combo) => {
        const key = `${combo.language} ${combo.theme}`;
        let page = pages.get(key);
        if (!page) {
          page = (async () => {
            // A browser in the language: the sign-in pages are rendered by the server in the
            // browser's language until one is chosen.
            const context = await browser.newContext({ locale: combo.language });
            contexts.push(context);
            await placeSession(context, seededTenant.url, seededTenant.name, seededTenant.admin);
            await placeSession(context, env.adminUrl, 'master', env.superAdmin);
            const opened = await context.newPage();
            await prepare(opened, combo);
            return opened;
          })();
          pages.set(key, page);
        }
        return page;
      });
      for (const context of contexts) await context.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

export { expect, type Page };
