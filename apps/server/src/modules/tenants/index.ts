// The public surface of the tenants module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { tenantRoutes } from './routes';
export { identifyTenant } from './service';
export { type ProvisionedTenant, provisionTenant, provisionMasterRealm } from './provisioning';
export { findMasterRealm } from './queries';
