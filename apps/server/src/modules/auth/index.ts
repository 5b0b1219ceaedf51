// The public surface of the auth module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { authRoutes, accountRoutes, googleRoutes } from './routes';
export { createGoogleSignIn } from './google';
