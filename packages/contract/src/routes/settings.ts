import { envelope } from '../problem';
import { provisioningSettingsSchema, provisioningSettingsViewSchema } from '../provisioning';
import { defineRoute } from '../route';
import { securityPolicySchema } from '../security';

/** The tenant's own settings, changed by its administrators. */
export const settingsRoutes = {
  securityPolicy: defineRoute({
    method: 'GET',
    path: '/settings/security',
    response: envelope(securityPolicySchema),
    permission: 'tenant:read',
    summary: "The tenant's second-factor and password policy",
  }),
  updateSecurityPolicy: defineRoute({
    method: 'PUT',
    path: '/settings/security',
    body: securityPolicySchema,
    response: envelope(securityPolicySchema),
    permission: 'tenant:write',
    summary: "Changes the tenant's second-factor and password policy",
  }),
  provisioning: defineRoute({
    method: 'GET',
    path: '/settings/provisioning',
    response: envelope(provisioningSettingsViewSchema),
    permission: 'tenant:read',
    summary: 'How users provisioned by SCIM start, and what a SCIM DELETE does',
  }),
  updateProvisioning: defineRoute({
    method: 'PUT',
    path: '/settings/provisioning',
    body: provisioningSettingsSchema,
    response: envelope(provisioningSettingsViewSchema),
    permission: 'tenant:write',
    summary: "Changes the tenant's SCIM provisioning choices",
  }),
};
