// The public surface of the events module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { eventsRoutes } from './routes';
export { EventHub } from './hub';
