import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../app-context';
import { attemptObservers } from '../identity/brute-force';
import { fleetMetrics } from './metrics-fleet';
import { registerScrapeGauges, type EventSource } from './metrics-gauges';
import { sendProblem } from './problem';

/** The label of a request no route matched (unknown paths, the console's page fallback). */
const UNMATCHED = 'unmatched';
const TOKEN_ROUTE = '/realms/:realm/protocol/openid-connect/token';
/** Grant types counted by name; anything else a caller sends is counted as 'other'. */
const GRANT_TYPES = new Set([
  'password',
  'refresh_token',
  'authorization_code',
  'client_credentials',
]);

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics` in Prometheus's text format, for callers sending METRICS_TOKEN as a bearer
 * token. Without METRICS_TOKEN the route answers 404 like an unknown path, and nothing is
 * measured: no hook, no registry, no process metrics.
 *
 * Each app has its own registry (tests build several apps in one process). Labels hold only
 * bounded values: a route's template, never its URL; a known grant type or 'other'.
 */
export async function registerMetrics(
  app: FastifyInstance,
  ctx: AppContext,
  { events }: { events: EventSource },
): Promise<void> {
  const token = ctx.config.metricsToken;
  if (!token) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) =>
      sendProblem(reply, {
        status: 404,
        code: 'request.route_not_found',
        params: { method: request.method, path: '/metrics' },
      }),
    );
    return;
  }

  const register = new Registry();
  collectDefaultMetrics({ register });
  const requests = new Counter({
    name: 'tenant_console_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [register],
  });
  const durations = new Histogram({
    name: 'tenant_console_http_request_duration_seconds',
    help: 'Time from request to the end of the answer, by method, route template and status.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [register],
  });
  const grants = new Counter({
    name: 'tenant_console_token_grants_total',
    help: 'Token endpoint requests, by grant type and outcome (success: 200).',
    labelNames: ['grant_type', 'outcome'],
    registers: [register],
  });
  // A counted failure writes its lock before the password is checked, and a right password
  // clears it: only an attempt refused by a lock says for certain that an account is locked.
  const lockouts = new Counter({
    name: 'tenant_console_login_lockout_refusals_total',
    help: 'Sign-in attempts refused, unchecked, because brute-force detection locked the account.',
    registers: [register],
  });
  attemptObservers.set(ctx.db, (attempt) => {
    if (!attempt.allowed) lockouts.inc();
  });
  registerScrapeGauges(register, ctx, events, app.log.child({ module: 'metrics' }));

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const labels = { method: request.method, route, status_code: reply.statusCode };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
    if (route === TOKEN_ROUTE && request.method === 'POST') {
      grants.inc({
        grant_type: grantTypeOf(request.body),
        outcome: reply.statusCode === 200 ? 'success' : 'failure',
      });
    }
  });

  const expected = digest(token);
  const fleet = cluster.isWorker ? fleetMetrics(register) : undefined;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    // Digests of equal length, compared in constant time: the answer tells nothing of the token.
    // The scheme is case-insensitive (RFC 7235 §2.1): `bearer` and `BEARER` are `Bearer`.
    const presented = digest(bearerTokenOf(request.headers.authorization) ?? '');
    if (!timingSafeEqual(presented, expected)) return refuse(reply);
    const text = fleet ? await fleet() : await register.metrics();
    return reply.header('cache-control', 'no-store').type(register.contentType).send(text);
  });
}

function bearerTokenOf(header: string | undefined): string | undefined {
  return /^Bearer +(\S+)$/i.exec(header ?? '')?.[1];
}

function refuse(reply: FastifyReply) {
  reply.header('www-authenticate', 'Bearer');
  return sendProblem(reply, { status: 401, code: 'auth.sign_in_required' });
}

function grantTypeOf(body: FastifyRequest['body']): string {
  const grantType = (body as { grant_type?: unknown } | undefined)?.grant_type;
  return typeof grantType === 'string' && GRANT_TYPES.has(grantType) ? grantType : 'other';
}
