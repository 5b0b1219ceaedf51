// The public surface of the events module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { eventsRoutes } from './routes';
export { EventHub } from './hub';
// How many missed events a replay sends: the retention job keeps at least these.
export { REPLAY_LIMIT } from './service';
