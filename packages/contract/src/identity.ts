import { z } from 'zod';
import { envelope } from './problem';
import { passwordRulesSchema } from './security';
import { singleLineText } from './text';

/** Keycloak's token endpoint answer, plus `tenantId`, which the earlier client stores. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  refresh_expires_in: z.number().int(),
  token_type: z.literal('Bearer'),
  tenantId: z.string().uuid(),
  'not-before-policy': z.number().int().optional(),
  session_state: z.string().optional(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** OAuth 2.0 error (RFC 6749 §5.2), as Keycloak sends it. */
export const oauthErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});
export type OAuthError = z.infer<typeof oauthErrorSchema>;

/** The bounds only keep absurd values from reaching the services (and the password hash). */
const clientIdSchema = singleLineText().max(255).optional();
const refreshTokenSchema = singleLineText().max(8192).optional();

/** A form body; each field at most once (a repeated field arrives as an array and is refused). */
export const tokenRequestSchema = z.object({
  client_id: clientIdSchema,
  client_secret: singleLineText().max(1024).optional(),
  grant_type: singleLineText().max(100).optional(),
  username: singleLineText().max(255).optional(),
  password: singleLineText().max(1024).optional(),
  /** Keycloak's name for the second factor: the authenticator app's code, or a recovery code. */
  totp: singleLineText().max(100).optional(),
  refresh_token: refreshTokenSchema,
  scope: singleLineText().max(1024).optional(),
});

export const logoutRequestSchema = z.object({
  client_id: clientIdSchema,
  refresh_token: refreshTokenSchema,
});

/** Claims of our access tokens (docs/identity-provider.md). */
export interface AccessTokenClaims {
  iss: string;
  sub: string;
  exp: number;
  iat: number;
  tenant_id: string;
  email: string;
  name: string;
  sid: string;
  realm_access: { roles: string[] };
  permissions: string[];
}

export const tenantInfoSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    domain: z.string().nullable(),
    logoUrl: z.string().nullable(),
    signupEnabled: z.boolean(),
    googleEnabled: z.boolean(),
    /** Google's OAuth client id for the sign-in button; null when Google sign-in is off here. */
    googleClientId: z.string().nullable(),
    /** What a new password must meet here, so the console's checklist follows the tenant. */
    passwordRules: passwordRulesSchema,
  })
  .meta({ id: 'TenantInfo' });
export type TenantInfo = z.infer<typeof tenantInfoSchema>;
export const identifyResponseSchema = envelope(tenantInfoSchema);

/** The signed-in user, as the console's user card and permission checks need it. */
export const meSchema = z
  .object({
    id: z.string().uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    tenantId: z.string().uuid(),
    realm: z.string(),
    roles: z.array(z.string()),
    permissions: z.array(z.string()),
    superAdmin: z.boolean(),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof meSchema>;
export const meResponseSchema = envelope(meSchema);
