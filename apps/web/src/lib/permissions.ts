import { useSession } from './use-session';

/**
 * Whether the signed-in user's token grants a permission. The server checks
 * every call again; this only hides what would be refused.
 */
export function useCan(permission: string | 'superAdmin'): boolean {
  const session = useSession();
  if (!session) return false;
  if (permission === 'superAdmin') return session.superAdmin;
  return session.permissions.includes(permission);
}
