// The public surface of the permissions module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { permissionsRoutes } from './routes';
export { permissionsService } from './service';
export { createSystemPermissions } from './queries';
