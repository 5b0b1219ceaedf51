// The public surface of the mail-queue module: what app.ts may use.
export { mailQueueRoutes } from './routes';
