import type { FastifyBaseLogger } from 'fastify';

/**
 * What Fastify knew of a request it handed to the provider, which sees only the raw request:
 * the request's log (so a failure names its request id) and the client's address as
 * TRUST_PROXY says to read it (the provider's own would be the proxy's).
 */
export interface HandedOffRequest {
  log: FastifyBaseLogger;
  ip: string;
}

export const handedOffRequests = new WeakMap<object, HandedOffRequest>();
