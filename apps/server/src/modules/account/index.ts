// The public surface of the account module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { accountPageRoutes } from './routes';
export { listSessions, revokeSessions } from './sessions';
export { resetSecondFactors, secondFactorsOf } from './service';
export { userHandleOf } from './passkey-registration';
