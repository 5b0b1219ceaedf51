import { sql } from 'drizzle-orm';
import type { ClientMetadata } from 'oidc-provider';
import { CONSOLE_CLIENT_PATHS } from '@tc/contract/links';
import { CLIENT_ID } from '@tc/contract/permissions';
import type { Database } from '../../db/database';
import { prepareRawStatement } from '../../db/prepared';

/** A row of `clients`, as the identity provider reads it. */
export interface ClientRow {
  id: string;
  client_id: string;
  name: string;
  type: 'public' | 'confidential';
  secret_hash: string | null;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  web_origins: string[];
  grant_types: string[];
  id_token_signed_response_alg: 'RS256' | 'ES256';
  built_in: boolean;
  first_party: boolean;
  console_api_access: boolean;
  /** What its client-credentials tokens carry: its active service roles and their permissions. */
  service_roles: string[];
  service_permissions: string[];
}

function prepareFindClientRow(db: Database) {
  return prepareRawStatement(
    db,
    'find_client_row',
    sql`select c.id, c.client_id, c.name, c.type, c.secret_hash, c.redirect_uris,
      c.post_logout_redirect_uris, c.web_origins, c.grant_types, c.id_token_signed_response_alg,
      c.built_in, c.first_party, c.console_api_access,
      coalesce((
        select json_agg(distinct r.name)
        from client_service_roles csr join roles r on r.id = csr.role_id and r.status = 'active'
        where csr.client_row_id = c.id
      ), '[]') as service_roles,
      coalesce((
        select json_agg(distinct p.name)
        from client_service_roles csr join roles r on r.id = csr.role_id and r.status = 'active'
        join role_permissions rp on rp.role_id = r.id
        join permissions p on p.id = rp.permission_id
        where csr.client_row_id = c.id
      ), '[]') as service_permissions
    from clients c
    where c.tenant_id = ${sql.placeholder('tenantId')} and c.client_id = ${sql.placeholder('clientId')}
    limit 1`,
  );
}
const preparedFindClientRow = new WeakMap<Database, ReturnType<typeof prepareFindClientRow>>();

/**
 * Read on every provider request that names a client, with the service roles its
 * client-credentials tokens carry, so such a grant needs no other statement: prepared, planned
 * once per connection.
 */
export async function findClientRow(
  db: Database,
  tenantId: string,
  clientId: string,
): Promise<ClientRow | undefined> {
  let prepared = preparedFindClientRow.get(db);
  if (!prepared) preparedFindClientRow.set(db, (prepared = prepareFindClientRow(db)));
  const result = (await prepared.execute({ tenantId, clientId })) as { rows: ClientRow[] };
  return result.rows[0];
}

/** Where the console itself is served for a realm: PUBLIC_URL and the tenant's domain. */
export interface ConsoleOrigins {
  origins: string[];
}

const isPrivateUseScheme = (uri: string) => {
  const protocol = URL.parse(uri)?.protocol ?? '';
  return protocol !== 'http:' && protocol !== 'https:';
};

/**
 * The provider's view of an application. The stored secret is a SHA-256 digest, handed over
 * as the secret itself: the provider only compares it, through the comparison we replace
 * (`compareClientSecret`), and no symmetric algorithm that would need the clear secret is
 * enabled. The password grant is ours, not the provider's, so it is left out of its list.
 */
export function clientMetadata(row: ClientRow, console: ConsoleOrigins): ClientMetadata {
  const builtIn = row.client_id === CLIENT_ID && row.built_in;
  const consoleUris = (path: string) => (builtIn ? console.origins.map((o) => `${o}${path}`) : []);
  const redirectUris = [...consoleUris(CONSOLE_CLIENT_PATHS.callback), ...row.redirect_uris];
  // A private-use scheme makes a native application (RFC 8252); loopback http serves web and
  // native ones alike, and the provider accepts it for either.
  const native = redirectUris.some(isPrivateUseScheme);
  // Client credentials are only for a client that authenticates: the provider would otherwise
  // hand a client's own tokens to anyone who names it.
  const secret = row.type === 'confidential' ? row.secret_hash : null;
  const grantTypes = row.grant_types.filter(
    (grant) => grant !== 'password' && (secret || grant !== 'client_credentials'),
  );
  return {
    client_id: row.client_id,
    client_name: row.name,
    ...(secret
      ? { client_secret: secret, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'none' }),
    application_type: native ? 'native' : 'web',
    redirect_uris: redirectUris,
    post_logout_redirect_uris: [
      ...consoleUris(CONSOLE_CLIENT_PATHS.signedOut),
      ...row.post_logout_redirect_uris,
    ],
    grant_types: grantTypes,
    response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
    id_token_signed_response_alg: row.id_token_signed_response_alg,
    require_auth_time: true,
    web_origins: builtIn ? [...console.origins, ...row.web_origins] : row.web_origins,
    client_row_id: row.id,
    service_grants: { roles: row.service_roles, permissions: row.service_permissions },
    // The tenant's own application asks no consent; console_api_access makes its access
    // tokens the console API's (audience.ts). The console's own client is both, always.
    first_party: builtIn || row.first_party,
    console_api_access: builtIn || row.console_api_access,
  };
}
