// The public surface of the roles module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { rolesRoutes } from './routes';
export {
  requireHoldsAll,
  requireMayActOnUser,
  requireMayGiveRole,
  requireAdministrator,
} from './grants';
export { rolesService, requireRole, requireRolesInTenant } from './service';
export { insertRole, builtInRoleId } from './queries';
