import type { FastifyInstance } from 'fastify';
import type { FuzzAnswer } from './fuzz-request';
import { isProblemCode } from '@tc/contract/problem-codes';

export interface ServerRoute {
  method: string;
  /** As registered, e.g. `/api/v1.0/users/:id`. */
  url: string;
  /** `GET /api/v1.0/users/:id`: the key of the route's generator. */
  key: string;
}

const route = (method: string, url: string): ServerRoute => ({
  method,
  url,
  key: `${method} ${url}`,
});

/**
 * Every route the server answers, read from its own route tree (Fastify's printRoutes), so
 * that a new route is fuzzed, or fails the test for want of a generator, without a list to
 * keep. HEAD is left out: Fastify answers it with the GET handler.
 */
export function serverRoutes(app: FastifyInstance): ServerRoute[] {
  const routes: ServerRoute[] = [];
  const pathAtDepth: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    // Each level of the tree is indented by four characters: "│   ", "├── " or "└── ".
    const branch = Math.max(line.indexOf('├── '), line.indexOf('└── '));
    if (branch < 0) continue;
    const depth = branch / 4;
    let label = line.slice(branch + 4);
    let methods: string[] = [];
    const open = label.lastIndexOf(' (');
    if (open >= 0 && label.endsWith(')')) {
      methods = label.slice(open + 2, -1).split(', ');
      label = label.slice(0, open);
    }
    const path = (pathAtDepth[depth - 1] ?? '') + label;
    pathAtDepth.length = depth;
    pathAtDepth[depth] = path;
    const url = path.startsWith('/') ? path : `/${path}`;
    for (const method of methods) if (method !== 'HEAD') routes.push(route(method, url));
  }
  return routes;
}

/** The documented routes of an OpenAPI document, in Fastify's spelling. */
export function documentedRoutes(document: { paths: Record<string, object> }): ServerRoute[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) =>
      route(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ':$1')),
    ),
  );
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object'
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const OPENID = '/realms/:realm/protocol/openid-connect';
/** The provider's routes a browser is sent to: a refusal there is a page for the person. */
const BROWSER_ROUTES = new Set([
  `GET ${OPENID}/auth`,
  `POST ${OPENID}/auth`,
  `GET ${OPENID}/auth/:uid`,
  `GET ${OPENID}/logout`,
  `POST ${OPENID}/logout/confirm`,
  `GET ${OPENID}/logout/success`,
  // The hosted sign-in page and its forms posted without script answer pages.
  'GET /login-actions/:realm/:uid',
  'POST /login-actions/:realm/:uid',
]);

/**
 * What is wrong with an answer, if anything: any 5xx; an identity-provider error that is not
 * in the OAuth shape (or, where a browser is sent, an HTML page) or may be cached; an API
 * error that is not problem+json. A 431 comes from Node's HTTP parser (headers too large)
 * before any route runs, and has no body.
 */
export function faultOf(target: ServerRoute, answer: FuzzAnswer): string | undefined {
  if (answer.refusedInTransit) return undefined;
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 1000)}`;
  if (/(^|\n)event: error\n/.test(answer.text)) return `the event stream failed: ${answer.text}`;
  if (answer.status < 400 || answer.status === 431) return undefined;
  const type = String(answer.headers['content-type'] ?? '');
  const body = parsed(answer.text);
  if (target.url.startsWith('/realms/') || target.url.startsWith('/login-actions/')) {
    if (BROWSER_ROUTES.has(target.key) && type.startsWith('text/html')) return undefined;
    if (!type.startsWith('application/json') || typeof body?.error !== 'string') {
      return `not an OAuth error: ${answer.status} ${type} ${answer.text.slice(0, 300)}`;
    }
    if (!String(answer.headers['cache-control']).includes('no-store')) {
      return `an OAuth error without cache-control: no-store (${answer.status})`;
    }
  } else if (target.url.startsWith('/api/v1.0/')) {
    if (!type.startsWith('application/problem+json') || body?.status !== answer.status) {
      return `not a problem+json: ${answer.status} ${type} ${answer.text.slice(0, 300)}`;
    }
    return uncodedProblem(body ?? {});
  }
  return undefined;
}

/** A problem the console could not translate: no code of the catalogue, or a field without one. */
function uncodedProblem(body: Record<string, unknown>): string | undefined {
  if (!isProblemCode(body.code)) return `a problem without a known code: ${JSON.stringify(body)}`;
  const fields = (body.fields ?? {}) as Record<string, { code?: unknown }>;
  const errors = (body.errors ?? {}) as Record<string, unknown>;
  for (const field of new Set([...Object.keys(fields), ...Object.keys(errors)])) {
    if (!isProblemCode(fields[field]?.code) || typeof errors[field] !== 'string') {
      return `field ${field} without both a known code and a text: ${JSON.stringify(body)}`;
    }
  }
  return undefined;
}
