import type { FastifyRequest } from 'fastify';

/** Who a passkey belongs to, as WebAuthn names it: the tenant's domain, checked per request. */
export interface RelyingParty {
  rpID: string;
  rpName: string;
  /** The page's origin, which the browser signs into every response. */
  origin: string;
}

/** The origin a browser request came from: its Origin header, or the Host it was sent to. */
export function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin;
  const host = request.headers.host;
  return host ? `${request.protocol}://${host}` : undefined;
}

/**
 * The tenant's domain is the relying party (the master realm's is the public URL's host). A
 * browser only uses a passkey on a page of that domain or one below it, so a request from
 * elsewhere gets undefined: passkeys are offered on the tenant's own address.
 */
export function relyingPartyFor(
  tenant: { name: string; domain: string | null },
  publicUrl: string,
  origin: string | undefined,
): RelyingParty | undefined {
  const rpID = (tenant.domain ?? new URL(publicUrl).hostname).toLowerCase();
  const url = origin ? URL.parse(origin) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  const host = url.hostname.toLowerCase();
  if (host !== rpID && !host.endsWith(`.${rpID}`)) return undefined;
  return { rpID, rpName: tenant.name, origin: url.origin };
}
