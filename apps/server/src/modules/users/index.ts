// The public surface of the users module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { usersRoutes } from './routes';
export { pageUsers, findUserRow, insertUser } from './queries';
export { requireUsersInTenant } from './service';
export { userExportBatches, type UserExportRequest, type ExportedUser } from './export-queries';
