import { z } from 'zod';
import { clientIdProblem, originProblem, redirectUriProblem } from './client-uris';
import { pageRequestSchema, pageResponseSchema } from './paging';
import { CLIENT_ID } from './permissions';
import { envelope } from './problem';
import { singleLineText } from './text';

/**
 * The OAuth 2.0 / OpenID Connect clients (applications) of a tenant: who may ask the tenant's
 * identity provider for tokens, from where, and how. The client's secret is never part of a
 * row: it is answered once, when it is made (create, turning a client confidential, rotation).
 */

export const CLIENT_TYPES = ['public', 'confidential'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'password',
] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export const ID_TOKEN_ALGORITHMS = ['RS256', 'ES256'] as const;
export type IdTokenAlgorithm = (typeof ID_TOKEN_ALGORITHMS)[number];

/**
 * Every tenant has this client, the console itself: it cannot be deleted or changed through
 * the API, because the console signs in through it and its tokens carry everything its user
 * holds; its addresses are the server's own (PUBLIC_URL and the tenant's domain).
 */
export const BUILT_IN_CLIENT_ID = CLIENT_ID;

/** Limits of the lists a client carries. */
export const MAX_CLIENT_URIS = 20;
export const MAX_CLIENT_URI_LENGTH = 2000;
export const MAX_SERVICE_ROLES = 100;

const clientIdSchema = singleLineText({ error: 'client.id_required' })
  .trim()
  .min(1, 'client.id_required')
  .max(100, 'text.too_long')
  .superRefine((value, context) => {
    const message = clientIdProblem(value);
    if (message) context.addIssue({ code: 'custom', message });
  });

/** A list of URIs, each checked by `problem`; repeats are dropped, the order is kept. */
const uriList = (problem: (uri: string) => string | undefined, normalize = (uri: string) => uri) =>
  z
    .array(
      singleLineText()
        .trim()
        .max(MAX_CLIENT_URI_LENGTH, 'text.too_long')
        .superRefine((value, context) => {
          const message = problem(value);
          if (message) context.addIssue({ code: 'custom', message });
        })
        .transform(normalize),
    )
    .max(MAX_CLIENT_URIS, 'client.uris_too_many')
    .default([])
    .transform((uris) => [...new Set(uris)]);

export const clientTypeSchema = z.enum(CLIENT_TYPES, 'client.type_invalid');

const clientFields = {
  clientId: clientIdSchema,
  name: singleLineText({ error: 'name.required' })
    .trim()
    .min(1, 'name.required')
    .max(100, 'text.too_long'),
  type: clientTypeSchema,
  redirectUris: uriList(redirectUriProblem),
  postLogoutRedirectUris: uriList(redirectUriProblem),
  // Stored as the browser sends it in `Origin`: lower-case, without a default port.
  webOrigins: uriList(originProblem, (origin) => new URL(origin).origin),
  grantTypes: z
    .array(z.enum(GRANT_TYPES, 'client.grant_type_invalid'))
    .min(1, 'client.grant_required')
    .transform((grants) => [...new Set(grants)]),
  /** The roles whose permissions a client_credentials token carries. */
  serviceRoleIds: z
    .array(z.uuid('role.unknown'))
    .max(MAX_SERVICE_ROLES, 'roles.too_many')
    .default([])
    .transform((ids) => [...new Set(ids)]),
  idTokenSignedResponseAlg: z
    .enum(ID_TOKEN_ALGORITHMS, 'client.algorithm_invalid')
    .default('RS256'),
  /**
   * The tenant's own application: its users are asked no consent. Set only by someone who
   * holds every permission its tokens could carry.
   */
  firstParty: z.boolean('field.invalid').default(false),
  /**
   * Its users' access tokens are accepted by the console API (with their user's permissions);
   * without it they are for the application alone. Set only by someone who holds every
   * permission its tokens could carry.
   */
  consoleApiAccess: z.boolean('field.invalid').default(false),
};

interface ClientRules {
  clientId: string;
  type: ClientType;
  grantTypes: GrantType[];
  redirectUris: string[];
  serviceRoleIds: string[];
}

/**
 * The rules between fields, each refusal on the field to change: client_credentials
 * authenticates the client itself, so only a client that can keep a secret may use it; a
 * refresh token only continues what another grant began; the authorization code flow needs
 * somewhere to send the code (but the built-in client's, the console's own address, is added
 * by the identity provider at run time); service roles only matter to client_credentials
 * tokens.
 */
function checkRules(client: ClientRules, context: z.RefinementCtx) {
  const grants = new Set(client.grantTypes);
  const refuse = (field: keyof ClientRules, message: string) =>
    context.addIssue({ code: 'custom', path: [field], message });
  if (grants.has('client_credentials') && client.type !== 'confidential') {
    refuse('grantTypes', 'client.grant_needs_confidential');
  }
  if (grants.has('refresh_token') && !grants.has('authorization_code') && !grants.has('password')) {
    refuse('grantTypes', 'client.refresh_needs_grant');
  }
  const needsRedirect = client.clientId !== BUILT_IN_CLIENT_ID && client.redirectUris.length === 0;
  if (grants.has('authorization_code') && needsRedirect) {
    refuse('redirectUris', 'client.grant_needs_redirect');
  }
  if (client.serviceRoleIds.length > 0 && !grants.has('client_credentials')) {
    refuse('serviceRoleIds', 'client.service_roles_need_grant');
  }
}

export const clientCreateSchema = z
  .object(clientFields)
  .superRefine(checkRules)
  .meta({ id: 'ClientCreate' });
export type ClientCreate = z.output<typeof clientCreateSchema>;

/** Update replaces every field of the form (PUT); service roles are replaced as a set. */
export const clientUpdateSchema = z
  .object({ id: z.uuid('id.invalid'), ...clientFields })
  .superRefine(checkRules)
  .meta({ id: 'ClientUpdate' });
export type ClientUpdate = z.output<typeof clientUpdateSchema>;

export const clientSchema = z
  .object({
    id: z.uuid(),
    clientId: z.string(),
    name: z.string(),
    type: z.enum(CLIENT_TYPES),
    redirectUris: z.array(z.string()),
    postLogoutRedirectUris: z.array(z.string()),
    webOrigins: z.array(z.string()),
    grantTypes: z.array(z.enum(GRANT_TYPES)),
    serviceRoleIds: z.array(z.uuid()),
    idTokenSignedResponseAlg: z.enum(ID_TOKEN_ALGORITHMS),
    /** The console's own client (`react-client`): not changed through the API, not deleted. */
    builtIn: z.boolean(),
    firstParty: z.boolean(),
    consoleApiAccess: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Client' });
export type Client = z.infer<typeof clientSchema>;

/**
 * A create or update answer: the row, plus the new secret when one was just made (a
 * confidential client created, or a public one turned confidential). It is shown this once;
 * only its digest is kept.
 */
export const clientWithSecretSchema = clientSchema
  .extend({ clientSecret: z.string().optional() })
  .meta({ id: 'ClientWithSecret' });
export type ClientWithSecret = z.infer<typeof clientWithSecretSchema>;

export const clientSecretSchema = z
  .object({ clientSecret: z.string() })
  .meta({ id: 'ClientSecret' });
export type ClientSecret = z.infer<typeof clientSecretSchema>;

export const CLIENT_SORT_FIELDS = ['name', 'clientId', 'type', 'createdAt'] as const;

/** Search on name and client ID; an exact filter on the type. */
export const clientPageRequestSchema = pageRequestSchema(
  CLIENT_SORT_FIELDS,
  { type: clientTypeSchema.optional() },
  'name',
).meta({ id: 'ClientPageRequest' });
export type ClientPageRequest = z.output<typeof clientPageRequestSchema>;

export const clientPageResponseSchema = pageResponseSchema(clientSchema).meta({
  id: 'ClientPage',
});
export const clientResponseSchema = envelope(clientSchema);
export const clientWithSecretResponseSchema = envelope(clientWithSecretSchema);
export const clientSecretResponseSchema = envelope(clientSecretSchema);
