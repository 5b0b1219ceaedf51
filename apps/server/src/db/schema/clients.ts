import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { roles } from './identity';
import { tenants } from './tenants';

/**
 * The OAuth 2.0 / OpenID Connect clients (applications) of a tenant, read by the identity
 * provider. `client_id` is what a client sends; `id` is the row's own key for the API.
 */
export const clients = pgTable(
  'clients',
  {
    id: id(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    // Case-sensitive, as OAuth compares it (RFC 6749 §2.2).
    clientId: text().notNull(),
    name: text().notNull(),
    type: text().notNull(),
    /**
     * base64url of the SHA-256 of the secret's text; null for public clients. The secret is 32
     * random bytes, so a fast digest cannot be reversed by guessing (unlike a password).
     */
    secretHash: text(),
    redirectUris: text()
      .array()
      .notNull()
      .default(sql`'{}'`),
    postLogoutRedirectUris: text()
      .array()
      .notNull()
      .default(sql`'{}'`),
    webOrigins: text()
      .array()
      .notNull()
      .default(sql`'{}'`),
    grantTypes: text().array().notNull(),
    idTokenSignedResponseAlg: text().notNull().default('RS256'),
    // The console's own client (react-client): not deleted, client ID and type fixed.
    builtIn: boolean().notNull().default(false),
    // The tenant's own application: no consent is asked of its users.
    firstParty: boolean().notNull().default(false),
    // Its users' access tokens are for the console API too, not only for the application.
    consoleApiAccess: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // INCLUDE (id) in migration 0016 (Drizzle cannot express INCLUDE): the list's order by
    // client ID, found in the index alone.
    unique('clients_tenant_id_client_id_key').on(t.tenantId, t.clientId),
    // The list's other orders (read backwards for descending), for the tenant and for one
    // type; a sort by type goes on by name.
    index('clients_tenant_name_idx').on(t.tenantId, t.name, t.id),
    index('clients_tenant_type_idx').on(t.tenantId, t.type, t.name, t.id),
    index('clients_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('clients_type_client_id_idx').on(t.tenantId, t.type, t.clientId, t.id),
    index('clients_type_created_idx').on(t.tenantId, t.type, t.createdAt, t.id),
    index('clients_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('clients_client_id_trgm_idx').using('gin', t.clientId.op('gin_trgm_ops')),
    check('clients_type_check', sql`${t.type} in ('public', 'confidential')`),
    check(
      'clients_id_token_signed_response_alg_check',
      sql`${t.idTokenSignedResponseAlg} in ('RS256', 'ES256')`,
    ),
    check(
      'clients_grant_types_check',
      sql`${t.grantTypes} <@ array['authorization_code', 'refresh_token', 'client_credentials', 'password']::text[]`,
    ),
  ],
);

/** The roles whose permissions a client's own (client_credentials) tokens carry. */
export const clientServiceRoles = pgTable(
  'client_service_roles',
  {
    clientRowId: uuid()
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    roleId: uuid()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.clientRowId, t.roleId] }),
    // A role's deletion cascades here; found by role without a scan.
    index('client_service_roles_role_idx').on(t.roleId),
  ],
);
