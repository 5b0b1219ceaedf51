import { z } from 'zod';

/**
 * The tenant's choices for users provisioned by SCIM (the Settings page's "Provisioning"
 * section): how a new user starts, and what a SCIM DELETE does.
 */

/** 'invite': an invitation mail, the user sets a password; 'activate': active, no mail. */
export const SCIM_NEW_USER_MODES = ['invite', 'activate'] as const;
/** 'deactivate': the user stays, inactive (reversible); 'delete': the user is gone. */
export const SCIM_DELETE_MODES = ['deactivate', 'delete'] as const;

export const provisioningSettingsSchema = z
  .object({
    scimNewUsers: z.enum(SCIM_NEW_USER_MODES),
    scimDelete: z.enum(SCIM_DELETE_MODES),
  })
  .meta({ id: 'ProvisioningSettings' });
export type ProvisioningSettings = z.infer<typeof provisioningSettingsSchema>;

/** The choices as read back, with where this tenant's SCIM server answers (for the IdP's setup). */
export const provisioningSettingsViewSchema = provisioningSettingsSchema
  .extend({ scimBaseUrl: z.string() })
  .meta({ id: 'ProvisioningSettingsView' });
export type ProvisioningSettingsView = z.infer<typeof provisioningSettingsViewSchema>;
