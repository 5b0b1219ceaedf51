import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { AnswerCache, type DataVersion } from '../db/data-version';
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
 * findRealm, answered from memory while the realm's tenant is unchanged: every request of the
 * identity provider names its realm, often several times. An answer is filed under the tenant
 * it names (the tenants table's change notice drops it: a renamed or disabled realm is looked
 * up again), so a realm is read from the database once its tenant is known. A name that finds
 * no realm is never kept: a realm created under it is found at once.
 */
export function cachedRealmLookup(db: Database, dataVersion: DataVersion): RealmLookup {
  const realms = new AnswerCache<Realm>(dataVersion, { maxAgeMs: 60_000 });
  const lookUp = async (name: string) => {
    const realm = await findRealm(db, name);
    if (realm) dataVersion.learnRealm(name, realm.id);
    return realm;
  };
  return (name) => {
    const tenantId = dataVersion.tenantOfRealm(name);
    return tenantId === undefined
      ? lookUp(name)
      : realms.get(name.toLowerCase(), () => lookUp(name), tenantId);
  };
}

export const issuerFor = (publicUrl: string, realm: string) =>
  `${publicUrl}/realms/${encodeURIComponent(realm)}`;
