import { ACCOUNT_LINK_PATHS } from '@tc/contract/links';

/**
 * Every route of the console in one typed table; links are built
 * here so that no URL string is written twice.
 */
export const paths = {
  root: '/',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgotpassword',
  checkEmail: '/checkemail',
  newPassword: ACCOUNT_LINK_PATHS.newPassword,
  passwordReset: '/passwordreset',
  verifyEmail: ACCOUNT_LINK_PATHS.verifyEmail,
  home: '/home',
  dashboard: '/dashboard',
  tenants: '/dashboard/tenants',
  mailQueue: '/dashboard/mail-queue',
  users: '/dashboard/users',
  roles: '/dashboard/roles',
  permissions: '/dashboard/permissions',
  projects: '/dashboard/projects',
  clients: '/dashboard/clients',
  usersImport: '/dashboard/users/import',
  webhooks: '/dashboard/webhooks',
  auditLog: '/dashboard/audit-log',
  account: '/account',
  settings: '/settings',
  welcome: '/welcome',
  firstStep: '/first-step',
  secondStep: '/second-step',
  thirdStep: '/third-step',
  complete: '/complete',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

export const links = {
  forgotPassword: (email?: string) => withQuery(paths.forgotPassword, { email }),
  newPassword: (token?: string) => withQuery(paths.newPassword, { token }),
  verifyEmail: (token?: string) => withQuery(paths.verifyEmail, { token }),
  /** Where a user lands after sign-in: super admins on Tenants, others on Home. */
  landing: (superAdmin: boolean) => (superAdmin ? paths.tenants : paths.home),
};

/** Navigation state of /checkemail: the address arrives here, never in the URL. */
export interface CheckEmailState {
  email: string;
}
