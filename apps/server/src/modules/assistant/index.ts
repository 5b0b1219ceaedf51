// The public surface of the assistant module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { assistantRoutes } from './routes';
