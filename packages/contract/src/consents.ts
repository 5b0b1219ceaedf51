import { z } from 'zod';

/**
 * An application the signed-in user allowed (consent), as the account page lists it: the
 * application's row id (what withdrawing names), its name, what it may do and since when.
 */
export const applicationConsentSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  clientId: z.string(),
  /** The scopes allowed, of CONSENT_SCOPES (sign-in-step-paths.ts). */
  scopes: z.array(z.string()),
  grantedAt: z.iso.datetime(),
});
export type ApplicationConsent = z.infer<typeof applicationConsentSchema>;

export const applicationConsentParamsSchema = z.object({ id: z.uuid('id.invalid') });
