import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

export async function accountRoutes(_app: FastifyInstance, _options: { ctx: AppContext }) {}
