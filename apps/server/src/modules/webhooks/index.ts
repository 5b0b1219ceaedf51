// The public surface of the webhooks module: what app.ts may use.
export { webhooksRoutes } from './routes';
