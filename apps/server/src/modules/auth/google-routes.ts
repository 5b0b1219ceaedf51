import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

export async function googleRoutes(_app: FastifyInstance, _options: { ctx: AppContext }) {}
