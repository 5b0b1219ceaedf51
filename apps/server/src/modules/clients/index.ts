// The public surface of the clients module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { clientsRoutes } from './routes';
export { insertBuiltInClient } from './queries';
