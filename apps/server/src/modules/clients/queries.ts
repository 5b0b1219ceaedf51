import { BUILT_IN_CLIENT_ID } from '@tc/contract/clients';
import type { Database } from '../../db/database';
import { clients } from '../../db/schema/clients';

/**
 * The console's own client, which every tenant (the master realm too) signs in through. Its
 * address lists start empty: the identity provider adds the console's callback at run time.
 * Migration 0011 made the same row for the tenants that existed before it.
 */
export async function insertBuiltInClient(tx: Database, tenantId: string): Promise<void> {
  await tx.insert(clients).values({
    tenantId,
    clientId: BUILT_IN_CLIENT_ID,
    name: 'Tenant Console',
    type: 'public',
    grantTypes: ['authorization_code', 'refresh_token', 'password'],
    idTokenSignedResponseAlg: 'ES256',
    builtIn: true,
  });
}
