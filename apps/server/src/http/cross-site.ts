import type { FastifyRequest } from 'fastify';

/** The origin of an address, or undefined for one no URL can hold. */
function originOf(address: string): string | undefined {
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a browser says this request was sent by a page of another origin: a form or a
 * script of another site posting with the browser's cookies (cross-site request forgery).
 * Fetch Metadata's `Sec-Fetch-Site` first (set by the browser, no page can forge it), else the
 * `Origin` header (OWASP's CSRF cheat sheet, "Verifying Origin with standard headers"). A
 * request with neither, or `Origin: null` (sent for a page with `Referrer-Policy: no-referrer`,
 * as ours have), is not called cross-site here: a form token decides where one is asked for,
 * and a client outside a browser holds no victim's cookies.
 *
 * Our forms and scripts post to their own origin only, so `same-site` (a tenant's address
 * beside another's) counts as foreign too.
 */
export function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  const own = originOf(`${request.protocol}://${request.host}`);
  return own === undefined || originOf(origin) !== own;
}
