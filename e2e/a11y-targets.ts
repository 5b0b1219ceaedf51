import { settled, type AxeException } from './axe';
import type { E2eEnv } from './env';
import { openMenuWith } from './pages';
import type { FreshTenant } from './tenant-fixture';
import { exactly, expect, seeded, text, type Combo, type Language, type Page } from './a11y-matrix';

/** What the accessibility matrix analyses: every screen and dialog of the console. */

export interface Context {
  combo: Combo;
  env: E2eEnv;
  tenant: FreshTenant;
}

export interface Target {
  name: string;
  kind: 'screen' | 'dialog';
  /** Navigates (the combination is set already) and waits until the target is shown, settled. */
  open(page: Page, context: Context): Promise<void>;
  exceptions?: AxeException[];
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
/**
 * The first paint of a screen: tenant check, the screen's chunk and texts; on a busy 2-core
 * machine that alone can pass the default 10 s.
 */
const FIRST_PAINT = { timeout: 30_000 };

async function guest(page: Page, context: Context, path: string) {
  await page.goto(`${context.env.demoUrl}${path}`);
  await expect(h1(page)).toBeVisible(FIRST_PAINT);
}

const guestScreen = (name: string, path: string): Target => ({
  name,
  kind: 'screen',
  open: (page, context) => guest(page, context, path),
});

/** The page's context holds both consoles' sessions (a11y-matrix.ts, `comboPage`). */
async function signedIn(page: Page, { tenant }: Context, path: string) {
  await page.goto(`${tenant.url}${path}`);
  await expect(h1(page)).toBeVisible(FIRST_PAINT);
}

async function asSuperAdmin(page: Page, { tenant, env }: Context) {
  await page.goto(`${env.adminUrl}/dashboard/tenants?q=${tenant.name}`);
  await expect(h1(page)).toBeVisible(FIRST_PAINT);
}

const adminScreen = (name: string, path: string): Target => ({
  name,
  kind: 'screen',
  open: (page, context) => signedIn(page, context, path),
});

interface List {
  name: string;
  namespace: string;
  path: string;
  /** The seeded row's name as its row menu button says it. */
  row: (tenant: FreshTenant) => string;
  superAdmin?: boolean;
}

const lists: List[] = [
  {
    name: 'users',
    namespace: 'users',
    path: '/dashboard/users',
    row: () => `${seeded.user.firstName} ${seeded.user.lastName}`,
  },
  { name: 'roles', namespace: 'roles', path: '/dashboard/roles', row: () => seeded.role },
  {
    name: 'permissions',
    namespace: 'permissions',
    path: '/dashboard/permissions',
    row: () => seeded.permission,
  },
  {
    name: 'projects',
    namespace: 'projects',
    path: '/dashboard/projects',
    row: () => seeded.project,
  },
  {
    name: 'applications',
    namespace: 'clients',
    path: '/dashboard/clients',
    row: () => seeded.client,
  },
  {
    name: 'tenants',
    namespace: 'tenants',
    path: '/dashboard/tenants',
    row: (tenant) => tenant.name,
    superAdmin: true,
  },
];

const rowMenuButton = (page: Page, language: Language, name: string) =>
  page.getByRole('button', { name: text(language, 'lists:actionsFor', { name }), exact: true });

async function openList(page: Page, context: Context, list: List) {
  if (list.superAdmin) await asSuperAdmin(page, context);
  else await signedIn(page, context, list.path);
  await expect(rowMenuButton(page, context.combo.language, list.row(context.tenant))).toBeVisible(
    FIRST_PAINT,
  );
}

async function openRowDialog(page: Page, context: Context, list: List, mode: 'edit' | 'delete') {
  const { language } = context.combo;
  await openList(page, context, list);
  const menu = await openMenuWith(page, rowMenuButton(page, language, list.row(context.tenant)));
  await menu.getByRole('menuitem', { name: text(language, `lists:${mode}`) }).click();
  const title = text(language, `${list.namespace}:${mode}Title`);
  await expect(page.getByRole('dialog', { name: title })).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCount(0);
  await settled(page);
}

const listTargets = lists.flatMap((list): Target[] => [
  { name: list.name, kind: 'screen', open: (page, context) => openList(page, context, list) },
  {
    name: `${list.name}: add dialog`,
    kind: 'dialog',
    async open(page, context) {
      const { language } = context.combo;
      await openList(page, context, list);
      await page
        .getByRole('button', { name: exactly(text(language, `${list.namespace}:addNew`)) })
        .click();
      const title = text(language, `${list.namespace}:addTitle`);
      await expect(page.getByRole('dialog', { name: title })).toBeVisible();
      await settled(page);
    },
  },
  {
    name: `${list.name}: edit dialog`,
    kind: 'dialog',
    open: (page, context) => openRowDialog(page, context, list, 'edit'),
  },
  {
    name: `${list.name}: delete confirmation`,
    kind: 'dialog',
    open: (page, context) => openRowDialog(page, context, list, 'delete'),
  },
]);

const onboardingSteps = [
  ['onboarding: welcome', '/welcome'],
  ['onboarding: step 1, role', '/first-step'],
  ['onboarding: step 2, permission', '/second-step'],
  ['onboarding: step 3, user', '/third-step'],
  ['onboarding: complete', '/complete'],
] as const;

export const targets: Target[] = [
  {
    name: 'sign in',
    kind: 'screen',
    async open(page, context) {
      await guest(page, context, '/');
      await expect(page.locator('button[type="submit"]')).toBeEnabled();
    },
  },
  guestScreen('sign up', '/signup'),
  guestScreen('forgot password', '/forgotpassword?email=marco.rossi%40demo.localhost'),
  guestScreen('check your e-mail', '/checkemail'),
  guestScreen('set new password', '/newpassword?token=not-a-real-token'),
  guestScreen('password reset', '/passwordreset'),
  guestScreen('verify e-mail', '/verifyemail?token=not-a-real-token'),
  {
    name: 'language menu',
    kind: 'dialog',
    async open(page, context) {
      const { language } = context.combo;
      // The console's menu; the sign-in pages offer the languages as plain links.
      await signedIn(page, context, '/home');
      const current = text(language, `language.${language}`);
      await page
        .getByRole('button', { name: text(language, 'language.label', { language: current }) })
        .click();
      await expect(page.getByRole('menuitem')).toHaveCount(4);
      await settled(page);
    },
  },
  {
    name: 'home with the assistant chat open',
    kind: 'screen',
    async open(page, context) {
      const { language } = context.combo;
      await signedIn(page, context, '/home');
      await page.getByRole('button', { name: text(language, 'chat.open') }).click();
      const chat = page.getByRole('dialog', { name: text(language, 'chat.title') });
      await expect(
        chat.getByRole('textbox', { name: text(language, 'chat.message') }),
      ).toBeEnabled();
    },
  },
  ...onboardingSteps.map(([name, path]) => adminScreen(name, path)),
  ...listTargets,
  {
    // The edit dialog of a confidential client: its secret rotation and the opened quick
    // start (addresses to copy, the code block that scrolls).
    name: 'applications: quick start',
    kind: 'dialog',
    async open(page, context) {
      const { language } = context.combo;
      const applications = lists.find((list) => list.namespace === 'clients')!;
      await openRowDialog(page, context, applications, 'edit');
      await page.getByRole('button', { name: text(language, 'clients:quickStart') }).click();
      await expect(
        page.getByRole('textbox', { name: text(language, 'clients:issuer') }),
      ).toBeVisible();
      await settled(page);
    },
  },
  {
    name: 'users: row menu',
    kind: 'dialog',
    async open(page, context) {
      const { language } = context.combo;
      const users = lists[0]!;
      await openList(page, context, users);
      await openMenuWith(page, rowMenuButton(page, language, users.row(context.tenant)));
      await settled(page);
    },
  },
  {
    // The set-up's creations wrote the trail's first rows.
    name: 'audit log',
    kind: 'screen',
    async open(page, context) {
      await signedIn(page, context, '/dashboard/audit-log');
      await expect(page.getByRole('row').nth(1)).toBeVisible(FIRST_PAINT);
    },
  },
  {
    // The worker's tenant has no endpoint: the list's empty state and its call to action.
    name: 'webhooks',
    kind: 'screen',
    async open(page, context) {
      await signedIn(page, context, '/dashboard/webhooks');
      await expect(
        page.getByRole('button', { name: text(context.combo.language, 'webhooks:emptyAction') }),
      ).toBeVisible(FIRST_PAINT);
    },
  },
  adminScreen('user import, upload step', '/dashboard/users/import'),
];
