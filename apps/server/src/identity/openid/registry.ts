import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import { OAuthError, realmNotFound } from '../oauth-error';
import type { Realm } from '../realms';
import { handedOffRequests } from './handed-off';
import { createRealmProvider, OPENID_ROUTES, type ProviderDeps } from './provider';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface Entry {
  provider: Provider;
  handle: Handler;
}

/** Where the console is served for a realm: PUBLIC_URL, and the tenant's own domain. */
async function consoleOrigins(db: Database, publicUrl: string, realm: Realm) {
  const origins = [new URL(publicUrl).origin];
  if (realm.isMaster) return { origins };
  const [tenant] = await db
    .select({ domain: tenants.domain })
    .from(tenants)
    .where(eq(tenants.id, realm.id));
  if (tenant?.domain) {
    const url = new URL(publicUrl);
    url.hostname = tenant.domain;
    origins.push(url.origin);
  }
  return { origins };
}

/**
 * Endpoints the provider serves by GET only: it takes POST there only with cookies that are
 * SameSite=None, which ours are not. OpenID Connect requires POST too, so a form posted to one
 * is sent on as the same request by GET (303), a top-level navigation that carries the cookies.
 */
const GET_ONLY: ReadonlySet<string> = new Set([
  OPENID_ROUTES.authorization,
  OPENID_ROUTES.end_session,
]);

const MAX_QUERY_LENGTH = 8 * 1024;

/** The form's fields as a query string; a field that is not text (a nested value) is left out. */
function asQuery(body: unknown): string {
  const query = new URLSearchParams();
  const fields = body !== null && typeof body === 'object' ? Object.entries(body) : [];
  for (const [name, value] of fields) {
    for (const item of [value].flat()) if (typeof item === 'string') query.append(name, item);
  }
  return query.size > 0 ? `?${query.toString()}` : '';
}

/** Whether a parameter (a text, or one nested in a repeated field) holds a NUL. */
const holdsNul = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes('\u0000')
    : value !== null && typeof value === 'object' && Object.values(value).some(holdsNul);

/**
 * The realms' providers, built on first use and kept while the realm keeps its name and
 * domain (a renamed realm has a new issuer, so a new provider).
 */
export function createProviderRegistry(deps: ProviderDeps) {
  const entries = new Map<string, Promise<Entry>>();

  async function build(realm: Realm): Promise<Entry> {
    const origins = await consoleOrigins(deps.db, deps.config.publicUrl, realm);
    const provider = await createRealmProvider(deps, realm, origins);
    return { provider, handle: provider.callback() as unknown as Handler };
  }

  async function forRealm(realm: Realm): Promise<Entry> {
    const key = `${realm.id}\n${realm.name}`;
    let entry = entries.get(key);
    if (!entry) {
      entry = build(realm);
      entry.catch(() => entries.delete(key));
      entries.set(key, entry);
    }
    return entry;
  }

  async function requireRealm(name: string): Promise<Realm> {
    const realm = await deps.findRealm(name);
    if (!realm) throw realmNotFound();
    return realm;
  }

  /**
   * Hands a request to the realm's provider as it arrived: the path below the realm (the
   * provider's routes) with the original URL kept, so the URLs it writes carry the prefix.
   * The form body Fastify parsed is passed along; the provider reads it from `req.body`.
   */
  async function handOff(request: FastifyRequest, reply: FastifyReply, realmName: string) {
    const realm = await requireRealm(realmName);
    const { handle } = await forRealm(realm);
    const raw = request.raw as IncomingMessage & { originalUrl?: string; body?: unknown };
    const url = raw.url ?? '/';
    const prefixEnd = url.indexOf('/', '/realms/'.length);
    if (!url.startsWith('/realms/') || prefixEnd < 0) {
      throw new OAuthError(404, 'invalid_request', 'Unknown endpoint');
    }
    // The provider writes its URLs from the Host header; one no URL can hold makes it fail.
    if (!URL.canParse(`http://${request.headers.host ?? ''}/`)) {
      throw new OAuthError(400, 'invalid_request', 'The Host header is not a host name.');
    }
    // The provider keeps parameters in PostgreSQL, which stores no NUL in text: it would fail.
    // It reads the query and the form as it decodes them, not as our schemas left them (a
    // field they drop, a sequence Fastify's decoder leaves encoded and its own turns into NUL).
    const [, rawQuery = ''] = url.split('?');
    const asProviderReads = [...new URLSearchParams(rawQuery)].flat();
    if ([request.params, request.query, request.body, raw.body, asProviderReads].some(holdsNul)) {
      throw new OAuthError(400, 'invalid_request', 'A parameter holds a NUL character.');
    }
    const [pathname = url] = url.split('?');
    if (request.method === 'POST' && GET_ONLY.has(pathname.slice(prefixEnd))) {
      const query = asQuery(request.body);
      // A browser sends no longer address than this, and an answer's headers must stay well
      // inside what HTTP clients accept (16 KB in Node.js).
      if (query.length > MAX_QUERY_LENGTH) {
        throw new OAuthError(
          400,
          'invalid_request',
          'The request has too many or too long parameters',
        );
      }
      reply.header('cache-control', 'no-store');
      return reply.redirect(`${pathname}${query}`, 303);
    }
    raw.originalUrl = url;
    raw.url = url.slice(prefixEnd);
    raw.body ??= request.body;
    handedOffRequests.set(raw, { log: request.log.child({ module: 'openid' }), ip: request.ip });
    // No answer about a sign-in or a token may be cached; the provider says so on most of its
    // endpoints, but not on revocation's errors.
    reply.raw.setHeader('cache-control', 'no-store');
    reply.hijack();
    await handle(raw, reply.raw);
  }

  return { forRealm, requireRealm, handOff };
}

export type ProviderRegistry = ReturnType<typeof createProviderRegistry>;
