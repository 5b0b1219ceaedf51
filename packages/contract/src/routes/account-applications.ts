import { z } from 'zod';
import { applicationConsentParamsSchema, applicationConsentSchema } from '../consents';
import { envelope } from '../problem';
import { defineRoute } from '../route';

/** The applications the signed-in user allowed (consent), and withdrawing one. */
export const accountApplicationRoutes = {
  applications: defineRoute({
    method: 'GET',
    path: '/account/applications',
    response: envelope(z.array(applicationConsentSchema)),
    permission: 'authenticated',
    summary: 'The applications the signed-in user allowed, with what each may do and since when',
  }),
  withdrawApplication: defineRoute({
    method: 'DELETE',
    path: '/account/applications/:id',
    params: applicationConsentParamsSchema,
    response: envelope(z.object({ ok: z.literal(true) })),
    permission: 'authenticated',
    problems: [404],
    summary:
      'Withdraws the consent given to an application and ends its tokens; its next sign-in asks again',
  }),
};
