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
};
