import type { ComponentType } from 'react';
import { AUTH_PAGE_PATHS, type AuthPageName } from '@tc/contract/auth-page';

type PageModule = { default: ComponentType };

/**
 * Each sign-in page is a chunk of its own, so a page's script carries that page only; the
 * client loads the server-rendered page's chunk before hydrating, and another one when it
 * navigates to it. The server's renderer loads them all once, when it starts.
 */
const pageModules: Record<AuthPageName, () => Promise<PageModule>> = {
  signIn: () => import('./components/sign-in-page'),
  hostedSignIn: () => import('./components/hosted-sign-in-page'),
  signUp: () => import('./components/sign-up-page'),
  forgotPassword: () => import('./components/forgot-password-page'),
  checkEmail: () => import('./components/check-email-page'),
  newPassword: () => import('./components/new-password-page'),
  passwordReset: () => import('./components/password-reset-page'),
  verifyEmail: () => import('./components/verify-email-page'),
  callback: () => import('./components/callback-page'),
};

export const AUTH_PAGE_NAMES = Object.keys(pageModules) as AuthPageName[];

const loaded = new Map<AuthPageName, ComponentType>();

/** The page's component once its chunk has loaded (hydration and rendering need it at once). */
export function loadedAuthPage(name: AuthPageName): ComponentType | undefined {
  return loaded.get(name);
}

export async function loadAuthPage(name: AuthPageName): Promise<ComponentType> {
  const page = loaded.get(name) ?? (await pageModules[name]()).default;
  loaded.set(name, page);
  return page;
}

const HOSTED_SIGN_IN_PREFIX = '/login-actions/';

/** The sign-in page an address shows, or null for an address of the console. */
export function authPageAt(pathname: string): AuthPageName | null {
  if (pathname.startsWith(HOSTED_SIGN_IN_PREFIX)) return 'hostedSignIn';
  for (const [name, path] of Object.entries(AUTH_PAGE_PATHS)) {
    if (path === pathname) return name as AuthPageName;
  }
  return null;
}
