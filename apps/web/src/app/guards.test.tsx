import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths, type AppPath } from '../lib/paths';
import { saveTokens } from '../lib/session';
import { accessToken, signOut } from '../test/session';
import { RequireAuth, RequirePermission } from './guards';
import { permissionHandle } from './route-access';

const screenAt = (path: AppPath) => ({
  path,
  handle: permissionHandle(path),
  element: <h1>{path}</h1>,
});

/** The router's shape: sign-in, then the signed-in screens behind both guards. */
const routes: RouteObject[] = [
  { path: paths.login, element: <h1>{paths.login}</h1> },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <RequirePermission />,
        children: [paths.home, paths.users, paths.tenants, paths.mailQueue].map(screenAt),
      },
    ],
  },
];

async function open(path: string) {
  const view = render(
    <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />,
  );
  const shown = (await screen.findByRole('heading', { level: 1 })).textContent;
  view.unmount();
  return shown;
}

const signIn = (claims: Parameters<typeof accessToken>[0]) =>
  saveTokens({ access_token: accessToken(claims), refresh_token: 'refresh' });

describe('route guards', () => {
  beforeEach(signOut);

  it('send a visitor without a session to sign-in', async () => {
    expect(await open(paths.users)).toBe(paths.login);
  });

  it('open a screen whose permission the user holds', async () => {
    signIn({ permissions: ['users:read'] });
    expect(await open(paths.users)).toBe(paths.users);
  });

  it('send a user without the permission home instead of onto the screen', async () => {
    signIn({ permissions: ['roles:read'] });
    expect(await open(paths.users)).toBe(paths.home);
    expect(await open(paths.tenants)).toBe(paths.home);
    expect(await open(paths.mailQueue)).toBe(paths.home);
  });

  it('open Tenants to a super administrator, and no tenant screen', async () => {
    signIn({ superAdmin: true, permissions: ['users:read'] });
    expect(await open(paths.tenants)).toBe(paths.tenants);
    expect(await open(paths.mailQueue)).toBe(paths.mailQueue);
    expect(await open(paths.users)).toBe(paths.home);
  });
});
