import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteShorthandOptions,
} from 'fastify';
import { problemSchema } from '@tc/contract/problem';
import {
  problemStatuses,
  type RouteAnswer,
  type RouteBody,
  type RouteHeaders,
  type RouteParams,
  type RoutePermission,
  type RouteQuery,
  type RouteSpec,
} from '@tc/contract/route';

/** A request as a contract route's schemas have validated it. */
export type RouteRequest<R extends RouteSpec> = Omit<
  FastifyRequest,
  'body' | 'params' | 'query' | 'headers'
> & {
  body: RouteBody<R>;
  params: RouteParams<R>;
  query: RouteQuery<R>;
  headers: FastifyRequest['headers'] & RouteHeaders<R>;
};

/** Answers the route's success body; registerRoute sends it with the route's status. */
export type RouteHandler<R extends RouteSpec> = (
  request: RouteRequest<R>,
  reply: FastifyReply,
) => Promise<RouteAnswer<R>>;

/** Server-only options of a route: a rate limit, an early hook. */
export type ExtraRouteOptions = Pick<RouteShorthandOptions, 'onRequest' | 'preHandler'> & {
  config?: FastifyContextConfig;
};

/** The auth guard's configuration for a contract permission (see auth-guard.ts). */
export function guardConfig(permission: RoutePermission): FastifyContextConfig {
  switch (permission) {
    case 'public':
      return { public: true };
    case 'authenticated':
      return { anyRealm: true };
    case 'super-admin':
      return { superAdmin: true };
    case 'tenant-user':
      return {};
    default:
      return { permission };
  }
}

/** Marks routes registered from the contract's table (the route-table test reads it). */
export const FROM_ROUTE_TABLE = 'fromRouteTable';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Registered by registerRoute from a contract route. */
    fromRouteTable?: boolean;
  }
}

/**
 * Registers a contract route: its method, path, schemas (for validation, serialization and
 * the OpenAPI document, tagged by the path's first segment), problem answers and the auth
 * guard's configuration all come from the table; the handler only answers.
 */
export function registerRoute<R extends RouteSpec>(
  app: FastifyInstance,
  route: R,
  handler: RouteHandler<R>,
  extra: ExtraRouteOptions = {},
): void {
  const problems = Object.fromEntries(
    problemStatuses(route).map((status) => [status, problemSchema]),
  );
  const tag = route.path.split('/')[1]!;
  app.route({
    method: route.method,
    url: route.path,
    ...extra,
    config: {
      ...guardConfig(route.permission),
      ...extra.config,
      [FROM_ROUTE_TABLE]: true,
    },
    schema: {
      tags: [tag],
      ...(route.summary ? { summary: route.summary } : {}),
      ...(route.description ? { description: route.description } : {}),
      ...(route.body ? { body: route.body } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.params ? { params: route.params } : {}),
      ...(route.headers ? { headers: route.headers } : {}),
      response: { [route.status ?? 200]: route.response, ...problems },
    },
    handler: async (request, reply) => {
      const answer = await handler(request as unknown as RouteRequest<R>, reply);
      // A handler that answered itself (a 429 from a budget check) has nothing more to send.
      if (reply.sent) return reply;
      return reply.code(route.status ?? 200).send(answer);
    },
  });
}
