import type { ComponentType } from 'react';
import { AUTH_PAGE_PATHS, type AuthPageName } from '@tc/contract/auth-page';
import { AUTH_PAGE_FILES } from './auth-page-files';

type PageModule = { default: ComponentType };

/**
 * Each sign-in page is a chunk of its own, so a page's script carries that page only; the
 * client loads the server-rendered page's chunk before hydrating, and another one when it
 * navigates to it. The server's renderer loads them all once, when it starts.
 */
const pageModules = import.meta.glob<PageModule>('./components/*-page.tsx');

export const AUTH_PAGE_NAMES = Object.keys(AUTH_PAGE_FILES) as AuthPageName[];

const loaded = new Map<AuthPageName, ComponentType>();

/** The page's component once its chunk has loaded (hydration and rendering need it at once). */
export function loadedAuthPage(name: AuthPageName): ComponentType | undefined {
  return loaded.get(name);
}

export async function loadAuthPage(name: AuthPageName): Promise<ComponentType> {
  const load = pageModules[`./components/${AUTH_PAGE_FILES[name]}.tsx`];
  if (!load) throw new Error(`The sign-in page ${name} has no module.`);
  const page = loaded.get(name) ?? (await load()).default;
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
