// The public surface of the projects module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { projectsRoutes } from './routes';
export { pageProjects, owner, ownerName } from './queries';
export { projectExportBatches, type ProjectExportRequest } from './export-queries';
