import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The browser a sign-in comes from: a random id in a cookie of its own, set at the hosted
 * sign-in page's steps and kept a year. Sessions keep its SHA-256 only, so that a sign-in from
 * a browser none of the user's sessions came from can be told to the user.
 */
export const BROWSER_COOKIE = 'tc_browser';
const ONE_YEAR_SECONDS = 365 * 24 * 3600;
/** 32 random bytes in base64url: any other value is not one of ours and is replaced. */
const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/;
/** The longest user agent a session keeps. */
const USER_AGENT_LENGTH = 512;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The browser id the Cookie header carries, if it is one of ours. */
export function browserIdIn(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== BROWSER_COOKIE) continue;
    const value = pair.slice(eq + 1).trim();
    if (BROWSER_ID.test(value)) return value;
  }
  return undefined;
}

/**
 * The browser's id, set in a new cookie when it has none. Written on the raw answer beside
 * the provider's cookies, which Fastify's own headers would otherwise replace.
 */
export function ensureBrowserId(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
): string {
  const known = browserIdIn(request.headers);
  if (known) return known;
  const id = randomBytes(32).toString('base64url');
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  reply.raw.appendHeader(
    'set-cookie',
    `${BROWSER_COOKIE}=${id}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  );
  return id;
}

/** Where a session was opened, as its row keeps it. */
export interface SessionOrigin {
  userAgent: string | null;
  ipAddress: string | null;
  browserHash: string | null;
}

export function userAgentIn(headers: IncomingHttpHeaders): string | null {
  const agent = headers['user-agent'];
  if (typeof agent !== 'string' || agent === '') return null;
  // Node's parser lets no NUL through; should one come, PostgreSQL's text could not hold it.
  return agent.replaceAll('\u0000', '').slice(0, USER_AGENT_LENGTH);
}

/** A browser's session: its id cookie names the browser. */
export function browserOrigin(
  headers: IncomingHttpHeaders,
  ip: string | undefined,
  browserId = browserIdIn(headers),
): SessionOrigin {
  return {
    userAgent: userAgentIn(headers),
    ipAddress: ip ?? null,
    browserHash: browserId ? sha256(browserId) : null,
  };
}

/** A password-grant client keeps no cookies: its user agent stands for the browser. */
export function clientOrigin(headers: IncomingHttpHeaders, ip: string | undefined): SessionOrigin {
  const userAgent = userAgentIn(headers);
  return { userAgent, ipAddress: ip ?? null, browserHash: sha256(userAgent ?? '') };
}
