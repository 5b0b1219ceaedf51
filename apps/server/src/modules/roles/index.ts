// The public surface of the roles module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { rolesRoutes } from './routes';
export {
  requireHoldsAll,
  requireMayActOnUser,
  requireMayGiveRole,
  requireAdministrator,
} from './grants';
export {
  insertRole,
  rolesService,
  builtInRoleId,
  requireRole,
  requireRolesInTenant,
} from './service';
