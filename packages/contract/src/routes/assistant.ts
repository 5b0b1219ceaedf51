import { assistantStatusResponseSchema } from '../assistant';
import { defineRoute } from '../route';

/** POST /assistant/chat streams server-sent events; the server registers it by hand. */
export const assistantRoutes = {
  status: defineRoute({
    method: 'GET',
    path: '/assistant',
    response: assistantStatusResponseSchema,
    permission: 'authenticated',
    summary: 'Whether the assistant is configured on this server',
  }),
};
