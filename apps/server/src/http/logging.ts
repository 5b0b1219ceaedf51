import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/**
 * The log configuration of the server: what a line may say about a request or an error. No
 * secret (password, hash, token, link token, key, cookie) may reach a log line, so requests
 * are summarised without headers or body, query parameters that carry secrets are masked, and
 * errors are logged field by field from a list of fields known to be safe.
 */

/** Query parameters whose values are secrets, by decoded, lower-case name. */
const SECRET_PARAMETERS = new Set([
  'code',
  'key',
  'auth',
  'authorization',
  'cookie',
  'assertion',
  'client_assertion',
  'otp',
  'sig',
  'jwt',
  'hash',
  'session',
  'sessionid',
]);
/** Any parameter whose name contains one of these is a secret too (`id_token_hint`, …). */
const SECRET_NAME_PARTS = [
  'token',
  'secret',
  'password',
  'passwd',
  'credential',
  'apikey',
  'api_key',
  'api-key',
  'signature',
  'verifier',
];

const MASK = '***';

function secretName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return SECRET_PARAMETERS.has(lower) || SECRET_NAME_PARTS.some((part) => lower.includes(part));
}

/** A name as the server reads it, and as it reads after one more decoding (sent twice encoded). */
function namesOf(name: string): string[] {
  try {
    return [name, decodeURIComponent(name)];
  } catch {
    return [name];
  }
}

/**
 * The URL with the value of every secret-bearing query parameter masked. URLSearchParams
 * decodes the names (`access%5Ftoken`, `%61ccess_token`), so no spelling slips past.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const entries = [...new URLSearchParams(url.slice(start + 1))];
  if (!entries.some(([name]) => namesOf(name).some(secretName))) return url;
  const kept = entries.map(([name, value]) => [
    name,
    namesOf(name).some(secretName) ? MASK : value,
  ]);
  return `${url.slice(0, start)}?${new URLSearchParams(kept).toString()}`;
}

/** A request in a log line: never its headers (authorization, cookies) nor its body. */
export function requestSummary(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}

export type LoggedError = {
  type: string;
  message: string;
  /** The stack's frames, without the message it opens with. */
  stack: string;
  /** A PostgreSQL SQLSTATE, or a Node.js or library error code. */
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  cause?: LoggedError;
};

const logged = new WeakSet<object>();
const IDENTIFIER = /^[\w.$-]{1,128}$/;
const identifier = (value: unknown) =>
  typeof value === 'string' && IDENTIFIER.test(value) ? value : undefined;

/** Every query parameter along the cause chain, as text (Drizzle and PGlite attach `params`). */
function parametersOf(error: unknown): string[] {
  const found: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const { params, cause } = current as { params?: unknown; cause?: unknown };
    if (Array.isArray(params)) {
      for (const param of params) {
        const text = typeof param === 'string' ? param : JSON.stringify(param);
        // Shorter values are not secrets, and masking them would garble the text.
        if (text && text.length >= 4) found.push(text);
      }
    }
    current = cause;
  }
  return found.sort((a, b) => b.length - a.length);
}

function describe(error: unknown, parameters: string[], depth: number): LoggedError {
  const safe = (text: string) =>
    parameters.reduce((result, parameter) => result.replaceAll(parameter, MASK), text);
  if (!(error instanceof Error)) {
    return { type: typeof error, message: 'a thrown value that is not an Error', stack: '' };
  }
  const fields = error as Error & Record<string, unknown>;
  const sqlState = /^[0-9A-Z]{5}$/.test(String(fields.code)) ? String(fields.code) : undefined;
  // Drizzle's "Failed query: <sql>\nparams: <values>": the values go.
  let message = error.message.split('\nparams:')[0]!;
  if (sqlState?.startsWith('22')) message = message.split(/[:"]/)[0]!.trim();
  // The stack opens with "<name>: <message>", the unsafe message included: only frames stay.
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  const result: LoggedError = {
    type: error.constructor?.name || error.name,
    message: safe(message),
    stack: safe(frames.join('\n')),
  };
  for (const key of ['code', 'constraint', 'table', 'column'] as const) {
    const value = identifier(fields[key]);
    if (value) result[key] = value;
  }
  if (fields.cause !== undefined && depth < 3) {
    result.cause = describe(fields.cause, parameters, depth + 1);
  }
  return result;
}

/**
 * What a log line says of an error: its class, codes and identifiers, a message without the
 * query's parameters, and the stack's frames. A failed query's message carries its parameters
 * (a password hash, a token digest) and a PostgreSQL error's `detail` the row's values, so
 * neither is ever copied; a data exception (SQLSTATE class 22) quotes the offending value in
 * its message, which is cut before it. Other fields (`params`, `query`, a request's raw bytes)
 * are left out.
 */
export function loggableError(error: unknown): LoggedError {
  if (error && typeof error === 'object' && logged.has(error)) return error as LoggedError;
  const result = describe(error, parametersOf(error), 0);
  logged.add(result);
  return result;
}

/**
 * A free-text message made safe: Fastify and libraries write URLs and error messages into
 * messages ("Route GET:/x?access_token=… not found"), so every word holding a query is
 * redacted and the parameters of a failed query are masked.
 */
export function safeText(text: string, parameters: string[] = []): string {
  const masked = parameters.reduce(
    (result, parameter) => result.replaceAll(parameter, MASK),
    text.split('\nparams:')[0]!,
  );
  return masked
    .split(/(\s+)/)
    .map((word) => (word.includes('?') ? redactUrl(word) : word))
    .join('');
}

/**
 * Runs before every log call: the message strings are made safe, and an Error logged alone,
 * whose message pino would copy into `msg`, is logged as `err` with a safe message instead.
 */
function safeLogCall(args: unknown[]): unknown[] {
  const [first] = args;
  const error = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
  const parameters = parametersOf(error);
  if (first instanceof Error) {
    const message = typeof args[1] === 'string' ? args[1] : first.message;
    return [{ err: first }, safeText(message, parameters), ...args.slice(2)];
  }
  return args.map((arg) => (typeof arg === 'string' ? safeText(arg, parameters) : arg));
}

/** Secrets of the configuration (the assistant's key, passwords in URLs) and their forms. */
function configuredSecrets(config: Config): string[] {
  const secrets = [config.assistant.apiKey, config.bootstrapAdminPassword, config.metricsToken];
  for (const url of [
    config.smtpUrl,
    config.databaseUrl,
    config.redis.url,
    config.assistant.baseUrl,
  ]) {
    try {
      if (url) secrets.push(decodeURIComponent(new URL(url).password));
    } catch {
      // Not a URL: it has no password to hide.
    }
  }
  const values = secrets.filter((secret): secret is string => !!secret && secret.length >= 6);
  return values.flatMap((secret) => [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
  ]);
}

/** The server's logger: used by main.ts and, with a captured stream, by the tests. */
export function loggerOptions(
  config: Config,
  stream?: NodeJS.WritableStream,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  const secrets = configuredSecrets(config);
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    serializers: { req: requestSummary, err: loggableError },
    // The last guard: whatever a line holds, a configured secret is never written.
    hooks: {
      logMethod(args, method) {
        method.apply(this, safeLogCall(args) as Parameters<typeof method>);
      },
      streamWrite: (line: string) =>
        secrets.reduce((text, secret) => text.replaceAll(secret, MASK), line),
    },
  };
}

/** An id a proxy or a client sent: short, and only characters a log line needs no escape for. */
const INCOMING_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The request's id, which Fastify puts on every line its `request.log` writes (`reqId`): the
 * `x-request-id` a proxy in front set, so its log and ours correlate, or a random UUID, unique
 * across the processes of a fleet (Fastify's own counter starts again at 1 in each).
 */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming)
    ? incoming
    : randomUUID();
}

/** Every answer names its request id, so a caller reporting a failure can quote it. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    // On the raw answer: the OpenID provider's and the event streams' bypass Fastify's reply.
    reply.raw.setHeader('x-request-id', request.id);
  });
}
