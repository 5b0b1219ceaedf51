// The public surface of the tenants module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { tenantRoutes } from './routes';
export { provisionTenant, findMasterRealm, provisionMasterRealm, identifyTenant } from './service';
