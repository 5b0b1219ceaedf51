// The public surface of the files module: what app.ts, bootstrap/ and other modules may use.
// Every other file of this folder is internal to the module (enforced by lint).
export { filesRoutes } from './routes';
export { storeImage, fileUrl } from './service';
export { deleteFile } from './queries';
