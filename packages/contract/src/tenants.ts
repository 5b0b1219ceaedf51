import { z } from 'zod';
import { pageRequestSchema, pageResponseSchema } from './paging';
import { MASTER_REALM } from './permissions';
import { envelope } from './problem';
import { singleLineText } from './text';

/**
 * The tenant's name is its realm name in `/realms/{name}/protocol/openid-connect/token`
 * (docs/identity-provider.md), so it is kept to characters that need no escaping in a URL path.
 */
export const TENANT_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{1,62}$/i;

/** One DNS label (RFC 1123 §2.1): 1–63 letters, digits and inner hyphens. */
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A host name of at least two labels (`acme.example.com`, `acme.localhost`); the last label
 * is not all digits, so an IPv4 address is not taken for a domain (RFC 3696 §2). Checked label
 * by label: one pattern over the whole name needs a lookahead for the last label, and its
 * backtracking across labels grows polynomially with the name's length.
 */
export function isTenantDomain(domain: string): boolean {
  const labels = domain.split('.');
  return (
    labels.length >= 2 &&
    labels.every((label) => DNS_LABEL.test(label)) &&
    /[a-z-]/.test(labels[labels.length - 1]!)
  );
}

const tenantNameSchema = singleLineText({ error: 'name.required' })
  .trim()
  .min(1, 'name.required')
  .max(63, 'tenant.name_too_long')
  .regex(TENANT_NAME_PATTERN, 'tenant.name_pattern')
  .refine((name) => name.toLowerCase() !== MASTER_REALM, 'tenant.name_reserved');

/** Stored lower-case; unique regardless of case. Not the console's own host (checked on the server). */
const tenantDomainSchema = singleLineText({ error: 'tenant.domain_required' })
  .trim()
  .toLowerCase()
  .min(1, 'tenant.domain_required')
  .max(253, 'tenant.domain_too_long')
  .refine(isTenantDomain, 'tenant.domain_pattern');

/**
 * Adding a tenant (name, domain; the earlier client's `id: null` is ignored).
 * `adminEmail` invites the tenant's first
 * administrator, who sets a password from the invitation.
 */
export const tenantCreateSchema = z
  .object({
    id: z.null().optional(),
    name: tenantNameSchema,
    domain: tenantDomainSchema,
    allowSignup: z.boolean().optional(),
    adminEmail: singleLineText()
      .trim()
      .toLowerCase()
      .max(254, 'email.too_long')
      .check(z.email('email.invalid'))
      .optional(),
  })
  .meta({ id: 'TenantCreate' });
export type TenantCreate = z.infer<typeof tenantCreateSchema>;

/** Editing a tenant renames its realm too. A missing `allowSignup` keeps the current value. */
export const tenantUpdateSchema = tenantCreateSchema
  .omit({ adminEmail: true })
  .extend({ id: z.uuid('id.not_valid') })
  .meta({ id: 'TenantUpdate' });
export type TenantUpdate = z.infer<typeof tenantUpdateSchema>;

/** A tenant as lists and forms show it; `logoUrl` is served by `GET /api/v1.0/files/{id}`. */
export const tenantSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain: z.string(),
    logoUrl: z.string().nullable(),
    allowSignup: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Tenant' });
export type Tenant = z.infer<typeof tenantSchema>;

export const TENANT_SORT_FIELDS = ['name', 'domain', 'createdAt'] as const;
export type TenantSortField = (typeof TENANT_SORT_FIELDS)[number];

/** The console sorts tenants by name; `filter.search` matches name or domain. */
export const tenantPageRequestSchema = pageRequestSchema(TENANT_SORT_FIELDS, {}).meta({
  id: 'TenantPageRequest',
});
export type TenantPageRequest = z.infer<typeof tenantPageRequestSchema>;

export const tenantPageResponseSchema = pageResponseSchema(tenantSchema).meta({
  id: 'TenantPage',
});
export const tenantResponseSchema = envelope(tenantSchema);
