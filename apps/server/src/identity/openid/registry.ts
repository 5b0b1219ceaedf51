import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import { OAuthError, realmNotFound } from '../oauth-error';
import { findRealm, type Realm } from '../realms';
import { createRealmProvider, type ProviderDeps } from './provider';

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
 * The realms' providers, built on first use and kept while the realm keeps its name and
 * domain (a renamed realm has a new issuer, so a new provider).
 */
export function createProviderRegistry(deps: ProviderDeps) {
  const entries = new Map<string, Promise<Entry>>();

  async function build(realm: Realm): Promise<Entry> {
    const origins = await consoleOrigins(deps.db, deps.config.publicUrl, realm);
    const provider = createRealmProvider(deps, realm, origins);
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
    const realm = await findRealm(deps.db, name);
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
    raw.originalUrl = url;
    raw.url = url.slice(prefixEnd);
    raw.body ??= request.body;
    reply.hijack();
    await handle(raw, reply.raw);
  }

  return { forRealm, requireRealm, handOff };
}

export type ProviderRegistry = ReturnType<typeof createProviderRegistry>;
