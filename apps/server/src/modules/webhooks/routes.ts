import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

// Placeholder until the webhooks feature lands.
// eslint-disable-next-line @typescript-eslint/require-await, @typescript-eslint/no-unused-vars
export async function webhooksRoutes(_app: FastifyInstance, _options: { ctx: AppContext }) {}
