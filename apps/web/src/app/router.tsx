import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import type { OnboardingStep } from '@tc/contract/onboarding';
import { CONSOLE_CLIENT_PATHS, HOSTED_SIGN_IN_PATH } from '@tc/contract/links';
import type { EntityName } from '../lib/entity-api';
import { paths, type AppPath } from '../lib/paths';
import { GuestOnly, LandingRedirect, RequireAuth, RequirePermission } from './guards';
import { permissionHandle, routePermissions } from './route-access';
import { enteringOnly, lazyScreen, lazyScreenWith, listLoader } from './route-loading';
import { RootRoute, RouteError, RouteLoading } from './route-shell';
import { ServerPage } from './server-page';

/**
 * The sign-in pages are the server's (rendered into their HTML, with a script of their own):
 * the console reaches them with a page load.
 */
const serverPages: RouteObject[] = [
  paths.login,
  paths.signup,
  paths.forgotPassword,
  paths.checkEmail,
  paths.newPassword,
  paths.passwordReset,
  paths.verifyEmail,
  HOSTED_SIGN_IN_PATH,
  CONSOLE_CLIENT_PATHS.callback,
].map((path) => ({ path, element: <ServerPage /> }));

/** A list screen: its chunk and texts load with the first page of its rows. */
function listScreen(
  path: AppPath,
  entity: EntityName,
  lazy: ReturnType<typeof lazyScreen>,
): RouteObject {
  return {
    path,
    handle: permissionHandle(path),
    lazy,
    loader: listLoader(entity, routePermissions[path]),
    shouldRevalidate: enteringOnly,
  };
}

const listScreens: RouteObject[] = [
  listScreen(
    paths.tenants,
    'tenants',
    lazyScreen(['tenants'], () => import('../features/tenants/components/tenants-page')),
  ),
  // Read-only and not a managed entity: no list loader, the screen asks for its first page.
  {
    path: paths.mailQueue,
    handle: permissionHandle(paths.mailQueue),
    lazy: lazyScreen(
      ['mailQueue'],
      () => import('../features/mail-queue/components/mail-queue-page'),
    ),
  },
  // Importing users: a wizard, not a list.
  {
    path: paths.usersImport,
    handle: permissionHandle(paths.usersImport),
    lazy: lazyScreen(
      ['userImport'],
      () => import('../features/user-import/components/user-import-page'),
    ),
  },
  listScreen(
    paths.users,
    'users',
    // The users' security dialog shows their sessions with the shared session list.
    lazyScreen(['users', 'sessions'], () => import('../features/users/components/users-page')),
  ),
  listScreen(
    paths.roles,
    'roles',
    lazyScreen(['roles'], () => import('../features/roles/components/roles-page')),
  ),
  listScreen(
    paths.permissions,
    'permissions',
    lazyScreen(
      ['permissions'],
      () => import('../features/permissions/components/permissions-page'),
    ),
  ),
  listScreen(
    paths.projects,
    'projects',
    lazyScreen(['projects'], () => import('../features/projects/components/projects-page')),
  ),
  listScreen(
    paths.clients,
    'clients',
    lazyScreen(['clients'], () => import('../features/clients/components/clients-page')),
  ),
  {
    path: paths.webhooks,
    handle: permissionHandle(paths.webhooks),
    lazy: lazyScreen(['webhooks'], () => import('../features/webhooks/components/webhooks-page')),
  },
  {
    path: paths.auditLog,
    handle: permissionHandle(paths.auditLog),
    lazy: lazyScreen(['auditLog'], () => import('../features/audit-log/components/audit-log-page')),
  },
];

const onboardingSteps: { path: AppPath; step: OnboardingStep }[] = [
  { path: paths.welcome, step: 'welcome' },
  { path: paths.firstStep, step: 'first-step' },
  { path: paths.secondStep, step: 'second-step' },
  { path: paths.thirdStep, step: 'third-step' },
  { path: paths.complete, step: 'complete' },
];

const onboardingScreens: RouteObject[] = onboardingSteps.map(({ path, step }) => ({
  path,
  handle: permissionHandle(path),
  lazy: lazyScreenWith(
    ['onboarding'],
    () => import('../features/onboarding/components/onboarding-page'),
    { step },
  ),
}));

/** The console inside the layout shell (sidebar, content, chat widget), which stays in place. */
const shellScreens: RouteObject = {
  lazy: lazyScreen(['lists', 'problems'], () => import('./layout/app-layout')),
  children: [
    {
      element: <RequirePermission />,
      children: [
        {
          path: paths.home,
          handle: permissionHandle(paths.home),
          lazy: lazyScreen(
            ['dashboard', 'onboarding'],
            () => import('../features/dashboard/components/home-page'),
          ),
        },
        { path: paths.dashboard, element: <LandingRedirect /> },
        ...listScreens,
        {
          path: paths.account,
          lazy: lazyScreen(
            ['account', 'sessions'],
            () => import('../features/account/components/account-page'),
          ),
        },
        {
          path: paths.settings,
          handle: permissionHandle(paths.settings),
          lazy: lazyScreen(
            ['settings'],
            () => import('../features/settings/components/settings-page'),
          ),
        },
      ],
    },
  ],
};

export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    HydrateFallback: RouteLoading,
    ErrorBoundary: RouteError,
    children: [
      // The console's start: a signed-in user's landing page, else the sign-in page.
      {
        element: <GuestOnly />,
        children: [{ path: paths.root, element: <ServerPage to={paths.login} /> }],
      },
      ...serverPages,
      {
        element: <RequireAuth />,
        children: [shellScreens, { element: <RequirePermission />, children: onboardingScreens }],
      },
      { path: '*', element: <Navigate to={paths.root} replace /> },
    ],
  },
];

/**
 * Created when the console starts: the current address's screen (code, texts and first rows)
 * starts loading at once, in parallel with the tenant check and the translations.
 */
export const router = createBrowserRouter(routes);
