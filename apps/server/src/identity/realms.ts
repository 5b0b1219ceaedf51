import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { sharedReads } from '../db/batched-reads';
import { tenants } from '../db/schema/tenants';

export interface Realm {
  id: string;
  name: string;
  isMaster: boolean;
}

/** Looked up on every token request: prepared once per database, like the guard's query. */
function prepareFindRealm(db: Database) {
  return db
    .select({
      id: tenants.id,
      name: tenants.name,
      isMaster: tenants.isMaster,
      enabled: tenants.enabled,
    })
    .from(tenants)
    .where(eq(sql`lower(${tenants.name})`, sql.placeholder('name')))
    .limit(1)
    .prepare('find_realm');
}
const preparedFindRealm = new WeakMap<Database, ReturnType<typeof prepareFindRealm>>();

/** A realm is an enabled tenant, found by name as Keycloak finds realms in its URLs. */
export async function findRealm(db: Database, name: string): Promise<Realm | undefined> {
  let prepared = preparedFindRealm.get(db);
  if (!prepared) preparedFindRealm.set(db, (prepared = prepareFindRealm(db)));
  const [row] = await prepared.execute({ name: name.toLowerCase() });
  return row?.enabled ? { id: row.id, name: row.name, isMaster: row.isMaster } : undefined;
}

export type RealmLookup = (name: string) => Promise<Realm | undefined>;

/**
 * findRealm for the identity provider's requests, which name their realm, often several
 * times: the lookups of one turn of the event loop for the same name share one statement
 * (batched-reads.ts). Nothing is kept longer, so a renamed or disabled realm is seen at once.
 */
export function sharedRealmLookup(db: Database): RealmLookup {
  const lookUp = sharedReads((name: string) => findRealm(db, name));
  return (name) => lookUp(name.toLowerCase());
}

export const issuerFor = (publicUrl: string, realm: string) =>
  `${publicUrl}/realms/${encodeURIComponent(realm)}`;
