import { useEffect } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { onSessionEnd } from '../lib/session';
import { useSession } from '../lib/use-session';
import { links, paths } from '../lib/paths';

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

/** Tenants is for super administrators only. */
export function RequireSuperAdmin() {
  const session = useSession();
  return session?.superAdmin ? <Outlet /> : <Navigate to={paths.home} replace />;
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
