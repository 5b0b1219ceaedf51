// The public surface of the sign-in pages module: what app.ts may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { authPageRoutes } from './routes';
