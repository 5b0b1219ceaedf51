// The public surface of the csv-export module: what app.ts may use.
export { csvExportRoutes } from './routes';
