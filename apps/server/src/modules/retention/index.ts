// The public surface of the retention module: what app.ts may use.
export { createRetentionJob, type RetentionJob } from './job';
