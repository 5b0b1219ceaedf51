// The public surface of the scim module: what app.ts may use.
export { scimRoutes } from './routes';
