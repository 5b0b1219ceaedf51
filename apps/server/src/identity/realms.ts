import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { tenants } from '../db/schema/tenants';

export interface Realm {
  id: string;
  name: string;
  isMaster: boolean;
}

/** A realm is an enabled tenant, found by name as Keycloak finds realms in its URLs. */
export async function findRealm(db: Database, name: string): Promise<Realm | undefined> {
  const [row] = await db
    .select({
      id: tenants.id,
      name: tenants.name,
      isMaster: tenants.isMaster,
      enabled: tenants.enabled,
    })
    .from(tenants)
    .where(eq(sql`lower(${tenants.name})`, name.toLowerCase()))
    .limit(1);
  return row?.enabled ? { id: row.id, name: row.name, isMaster: row.isMaster } : undefined;
}

export const issuerFor = (publicUrl: string, realm: string) =>
  `${publicUrl}/realms/${encodeURIComponent(realm)}`;
