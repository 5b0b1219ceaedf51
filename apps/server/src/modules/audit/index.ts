// The public surface of the audit module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { auditRoutes } from './routes';
export {
  recordChange,
  recordChanges,
  EVENTS_CHANNEL,
  type Change,
  type ChangeAction,
} from './record';
