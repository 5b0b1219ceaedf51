/** Permissions every tenant has; the built-in Admin role holds them all (docs/api-conventions.md). */
export const SYSTEM_PERMISSIONS = [
  'users:read',
  'users:write',
  'roles:read',
  'roles:write',
  'permissions:read',
  'permissions:write',
  'projects:read',
  'projects:write',
  'clients:read',
  'clients:write',
  'tenant:read',
  'tenant:write',
  'audit:read',
  'webhooks:read',
  'webhooks:write',
  // Directory provisioning (SCIM): given to an application's service role, never needed by a
  // person; the Admin role holds it so that an administrator may grant it.
  'scim',
] as const;
export type SystemPermission = (typeof SYSTEM_PERMISSIONS)[number];

/** Read-only subset given to the Member role that self-sign-up users receive. */
export const MEMBER_PERMISSIONS: readonly SystemPermission[] = [
  'users:read',
  'roles:read',
  'permissions:read',
  'projects:read',
  'tenant:read',
];

export const ADMIN_ROLE = 'Admin';
export const MEMBER_ROLE = 'Member';
export const SUPER_ADMIN_ROLE = 'superAdmin';
export const MASTER_REALM = 'master';
export const CLIENT_ID = 'react-client';
