import { eq } from 'drizzle-orm';
import { ADMIN_ROLE } from '@tc/contract/permissions';
import type { Client, ClientCreate } from '@tc/contract/clients';
import type { ProblemCode } from '@tc/contract/problem-codes';
import type { Database } from '../../db/database';
import { permissions } from '../../db/schema/identity';
import { AppError, conflict, type FieldProblems } from '../../http/problem';
import type { Caller } from '../../identity/token-service';

/**
 * Nobody grants what they do not hold, applied to applications. A first-party application
 * gets its users' tokens without asking them, and one with console API access uses those
 * tokens at the console API: either may act with the permissions of any user of the tenant
 * who signs in to it, so whoever sets either — or changes where such an application's codes
 * go (its addresses, grants, type or secret) — must hold every permission a token of the
 * tenant could carry: every permission of the tenant, as the Admin role may grant them all
 * (docs/identity-provider.md, "Which tokens the console API accepts").
 */

type ClientFields = Omit<ClientCreate, 'serviceRoleIds'> & { serviceRoleIds: string[] };

/** What makes an application trusted: set only by someone who holds everything. */
const TRUST_FIELDS = ['firstParty', 'consoleApiAccess'] as const;

/** What decides who receives a trusted application's codes and tokens. */
const DELIVERY_FIELDS = [
  'clientId',
  'type',
  'redirectUris',
  'postLogoutRedirectUris',
  'webOrigins',
  'grantTypes',
] as const;

/** Every field the console's own client would change through an update but its name. */
const BUILT_IN_FIXED = [
  ...DELIVERY_FIELDS,
  'serviceRoleIds',
  'idTokenSignedResponseAlg',
  ...TRUST_FIELDS,
] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isTrusted = (client: Pick<Client, 'firstParty' | 'consoleApiAccess'>) =>
  client.firstParty || client.consoleApiAccess;

/** The tenant's permissions the caller does not hold; none for the tenant's Admin. */
async function permissionsNotHeld(db: Database, caller: Caller): Promise<string[]> {
  if (caller.roles.includes(ADMIN_ROLE)) return [];
  const rows = await db
    .select({ name: permissions.name })
    .from(permissions)
    .where(eq(permissions.tenantId, caller.tenantId));
  return rows.map((row) => row.name).filter((name) => !caller.permissions.includes(name));
}

async function requireHoldsEverything(
  db: Database,
  caller: Caller,
  code: ProblemCode,
  fields: readonly string[],
) {
  const missing = await permissionsNotHeld(db, caller);
  if (missing.length === 0) return;
  const problems: FieldProblems = Object.fromEntries(fields.map((field) => [field, code]));
  const listed = missing.map((name) => `"${name}"`).join(', ');
  throw new AppError(403, code, { permissions: listed }, problems);
}

/** A new application made first-party or given the console API: the caller holds everything. */
export async function checkTrustOnCreate(db: Database, caller: Caller, data: ClientFields) {
  const asked = TRUST_FIELDS.filter((field) => data[field]);
  if (asked.length > 0) await requireHoldsEverything(db, caller, 'grant.client_trust', asked);
}

/**
 * An update: the console's own client changes its name only, by anyone; raising trust, or
 * changing where a trusted application's codes go, needs everything.
 */
export async function checkTrustOnUpdate(
  db: Database,
  caller: Caller,
  before: Client,
  data: ClientFields,
) {
  if (before.builtIn) {
    const changed = BUILT_IN_FIXED.filter((field) => !same(data[field], before[field]));
    if (changed.length > 0) {
      const fields: FieldProblems = {};
      for (const field of changed) fields[field] = 'client.built_in_changed';
      throw conflict('client.built_in_changed', { clientId: before.clientId }, fields);
    }
    return;
  }
  const raised = TRUST_FIELDS.filter((field) => data[field] && !before[field]);
  if (raised.length > 0) await requireHoldsEverything(db, caller, 'grant.client_trust', raised);
  if (!isTrusted(before)) return;
  const moved = DELIVERY_FIELDS.filter((field) => !same(data[field], before[field]));
  if (moved.length > 0) {
    await requireHoldsEverything(db, caller, 'grant.trusted_client_change', moved);
  }
}

/** A new secret: never for the console's own client; for a trusted one, from who holds all. */
export async function checkTrustOnRotation(db: Database, caller: Caller, before: Client) {
  if (before.builtIn) throw conflict('client.built_in_changed', { clientId: before.clientId });
  if (isTrusted(before)) {
    await requireHoldsEverything(db, caller, 'grant.trusted_client_change', []);
  }
}
