import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import { insertUser } from '../modules/users';
import { findMasterRealm, provisionMasterRealm } from '../modules/tenants';
import type { Database } from '../db/database';
import { tenants } from '../db/schema/tenants';
import { seedDemoTenant, DEMO_ADMIN } from './seed-demo';

// Any number: all processes agree on it, so two first starts never seed twice.
const SEED_LOCK = 727_002;

export interface SeedReport {
  superAdminEmail: string;
  /** Set only on the start that generated it: it is printed once and never stored in clear. */
  generatedPassword?: string;
  demo?: { email: string; password: string };
}

/** Creates the master realm, its super administrator and (optionally) the demo tenant, once. */
export async function seed(db: Database, config: Config): Promise<SeedReport> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const report: SeedReport = { superAdminEmail: config.bootstrapAdminEmail };
    if (!(await findMasterRealm(tx))) {
      const master = await provisionMasterRealm(tx);
      const password = config.bootstrapAdminPassword ?? generatePassword();
      if (!config.bootstrapAdminPassword) report.generatedPassword = password;
      await insertUser(tx, {
        tenantId: master.tenantId,
        email: config.bootstrapAdminEmail,
        firstName: 'Super',
        lastName: 'Admin',
        roleId: master.roleId,
        password,
      });
    }
    if (config.seedDemo) {
      const [demo] = await tx
        .select({ id: tenants.id })
        .from(tenants)
        .where(eq(tenants.name, 'demo'));
      if (!demo) {
        await seedDemoTenant(tx);
        report.demo = DEMO_ADMIN;
      }
    }
    return report;
  });
}

/** 18 random bytes in base64url plus a special character, so it meets the password policy. */
function generatePassword(): string {
  return `${randomBytes(18).toString('base64url')}!`;
}
