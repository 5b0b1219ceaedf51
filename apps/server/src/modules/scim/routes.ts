import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

// Placeholder until the scim feature lands.
// eslint-disable-next-line @typescript-eslint/require-await, @typescript-eslint/no-unused-vars
export async function scimRoutes(_app: FastifyInstance, _options: { ctx: AppContext }) {}
