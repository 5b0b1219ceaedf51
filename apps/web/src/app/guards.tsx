import { useEffect } from 'react';
import { Navigate, Outlet, useMatches, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { onSessionEnd } from '../lib/session';
import { useSession } from '../lib/use-session';
import { links, paths } from '../lib/paths';
import { isAllowed, requiredPermissions } from './route-access';

/**
 * Dashboard and home routes need a signed-in user; without one they go to /login, the target
 * of logout and of a failed refresh, as in the earlier client. Sending them to / instead would
 * race SessionEndRedirect: the session update renders before the router's (transition) update,
 * so this guard's redirect would land last and a logout would end on / rather than /login.
 */
export function RequireAuth() {
  const session = useSession();
  return session ? <Outlet /> : <Navigate to={paths.login} replace />;
}

/**
 * The one permission guard: the screens below it declare what they need in their route
 * handle (route-access.ts); a user without it goes home instead of onto a screen whose
 * requests the server would refuse. Tenants, for super administrators only, is one of them.
 */
export function RequirePermission() {
  const session = useSession();
  const allowed = requiredPermissions(useMatches()).every((permission) =>
    isAllowed(session, permission),
  );
  return allowed ? <Outlet /> : <Navigate to={paths.home} replace />;
}

/** Sign-in screens send a signed-in user to their landing page. */
export function GuestOnly() {
  const session = useSession();
  return session ? <Navigate to={links.landing(session.superAdmin)} replace /> : <Outlet />;
}

export function LandingRedirect() {
  const session = useSession();
  return <Navigate to={links.landing(session?.superAdmin ?? false)} replace />;
}

/**
 * Navigation after the session ends (logout or a failed refresh) happens here, not in the
 * HTTP client: the client knows requests, not screens.
 */
export function SessionEndRedirect() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSessionEnd(() => {
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'tenant' });
        void navigate(paths.login, { replace: true });
      }),
    [navigate, queryClient],
  );
  return null;
}
