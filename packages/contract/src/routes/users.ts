import { z } from 'zod';
import { acceptedResponseSchema } from '../account';
import { acceptLanguageHeaderSchema } from '../headers';
import { idParamsSchema } from '../paging';
import { defineRoute } from '../route';
import {
  userCreateSchema,
  userPageRequestSchema,
  userPageResponseSchema,
  userSchema,
  userUpdateSchema,
} from '../users';
import { crudRoutes } from './crud';
import { envelope } from '../problem';
import { revokedSchema, userSecuritySchema, userSessionParamsSchema } from '../security';

export const userRoutes = {
  ...crudRoutes(
    'users',
    {
      row: userSchema,
      page: userPageRequestSchema,
      pageResponse: userPageResponseSchema,
      create: userCreateSchema,
      update: userUpdateSchema,
    },
    { read: 'users:read', write: 'users:write' },
  ),
  /** 409 once the user has set a password: they reset it instead. */
  resendInvitation: defineRoute({
    method: 'POST',
    path: '/users/:id/resend-invitation',
    params: idParamsSchema,
    // The invitation mail is written in the language the inviter's console asks for.
    headers: z.object({ 'accept-language': acceptLanguageHeaderSchema }),
    response: acceptedResponseSchema,
    status: 202,
    permission: 'users:write',
    problems: [404, 409],
    summary: 'Sends a fresh invitation link; the previous one stops working',
  }),
  /** An administrator's view of a user's sessions and second factors. */
  security: defineRoute({
    method: 'GET',
    path: '/users/:id/sessions',
    params: idParamsSchema,
    response: envelope(userSecuritySchema),
    permission: 'users:write',
    problems: [404],
    summary: "A user's open sessions and second factors",
  }),
  revokeSession: defineRoute({
    method: 'POST',
    path: '/users/:id/sessions/:sessionId/revoke',
    params: userSessionParamsSchema,
    response: revokedSchema,
    permission: 'users:write',
    problems: [404],
    summary: "Ends one of a user's sessions",
  }),
  revokeSessions: defineRoute({
    method: 'POST',
    path: '/users/:id/sessions/revoke-all',
    params: idParamsSchema,
    response: revokedSchema,
    permission: 'users:write',
    problems: [404],
    summary: 'Ends every session of a user',
  }),
  resetMfa: defineRoute({
    method: 'POST',
    path: '/users/:id/reset-mfa',
    params: idParamsSchema,
    response: envelope(userSecuritySchema),
    permission: 'users:write',
    problems: [404],
    summary: "Removes a user's authenticator app, recovery codes and passkeys; they enrol again",
  }),
};
