// The public surface of the user-import module: what app.ts may use.
export { userImportRoutes } from './routes';
