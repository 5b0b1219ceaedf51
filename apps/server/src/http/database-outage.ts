/**
 * Whether an error says the database cannot be reached right now (down, restarting, failing
 * over, or the pool cannot get a connection in time), rather than that the request is wrong
 * or a query is. Such a request may well succeed shortly: it is answered 503, not 500.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || isOutageSqlState(code))) {
      return true;
    }
    if (typeof message === 'string' && OUTAGE_MESSAGES.some((text) => message.includes(text))) {
      return true;
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Class 08 (connection exception), the shutdown and start-up states of class 57, and no
 * connection slot left (53300).
 */
const isOutageSqlState = (code: string) =>
  /^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code);

/**
 * What node-postgres says, without a code, when a connection is gone or cannot be had; and
 * PostgreSQL when the database refuses connections for a while (ALTER DATABASE … ALLOW_CONNECTIONS).
 */
const OUTAGE_MESSAGES = [
  'is not currently accepting connections',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'not queryable',
];
