import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { findRealm } from '../../identity/realms';
import { authenticateScimClient } from './auth';
import { listResponse, resourceTypes, schemas, serviceProviderConfig } from './discovery';
import { notFound, SCIM_MEDIA_TYPE, ScimError } from './errors';
import { GROUP_SCHEMA } from './groups-queries';
import {
  createGroup,
  deleteGroup,
  getGroup,
  listGroups,
  patchGroup,
  replaceGroup,
} from './groups-service';
import { project } from './projection';
import { ifMatchOf, readListParams, type ListParams } from './request-params';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from './user-resource';
import {
  createUser,
  deleteUser,
  getUser,
  listUsers,
  patchUser,
  replaceUser,
  type ScimScope,
} from './users-service';

type Params = { realm: string; id?: string };
type Resource = { id: string; meta: { location: string; version?: string } };

const USER_URNS = [USER_SCHEMA, ENTERPRISE_USER_SCHEMA];
const GROUP_URNS = [GROUP_SCHEMA];

function answerError(
  error: FastifyError | ScimError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof ScimError)
    return reply.code(error.status).type(SCIM_MEDIA_TYPE).send(error.body);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own refusals: a body that is not JSON, too large, of another media type.
    const scimType = status === 400 ? 'invalidSyntax' : undefined;
    return reply
      .code(status)
      .type(SCIM_MEDIA_TYPE)
      .send(new ScimError(status, scimType, error.message).body);
  }
  request.log.error(
    { err: { name: error.name, code: error.code }, url: request.routeOptions.url },
    'scim request failed',
  );
  return reply
    .code(500)
    .type(SCIM_MEDIA_TYPE)
    .send(new ScimError(500, undefined, 'The request failed').body);
}

const wantsMembers = (params: Pick<ListParams, 'attributes' | 'excludedAttributes'>) => {
  const named = (list?: string[]) =>
    list?.some((name) =>
      name.toLowerCase().replace(`${GROUP_SCHEMA.toLowerCase()}:`, '').startsWith('members'),
    );
  if (params.attributes && params.attributes.length > 0) return named(params.attributes) === true;
  return named(params.excludedAttributes) !== true;
};

/** SCIM 2.0 (RFC 7644) per tenant: /scim/v2/<realm>/Users, /Groups and the discovery resources. */
export async function scimRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // Both media types, JSON with prototype poisoning refused; an empty body (a DELETE that
  // still names a content type, as some clients send it) is no body.
  const json = app.getDefaultJsonParser('error', 'error');
  for (const type of ['application/json', 'application/scim+json']) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
    app.addContentTypeParser(type, { parseAs: 'string' }, (request, body, done) => {
      if (body === '') {
        done(null, undefined);
        return;
      }
      json(request, String(body), done);
    });
  }
  app.setErrorHandler(answerError);

  const baseUrlOf = (realm: string) =>
    `${ctx.config.publicUrl}/scim/v2/${encodeURIComponent(realm)}`;

  async function scopeOf(request: FastifyRequest<{ Params: Params }>): Promise<ScimScope> {
    const client = await authenticateScimClient(ctx, request.params.realm, request);
    return { ctx, client, baseUrl: baseUrlOf(client.realm) };
  }

  function send(reply: FastifyReply, status: number, body: unknown, resource?: Resource) {
    reply.code(status).type(SCIM_MEDIA_TYPE);
    if (resource?.meta.version) reply.header('etag', resource.meta.version);
    if (resource && status === 201) reply.header('location', resource.meta.location);
    return reply.send(body);
  }

  async function discoveryBase(realmName: string) {
    const realm = /^[a-z0-9][a-z0-9_-]{1,62}$/i.test(realmName)
      ? await findRealm(ctx.db, realmName)
      : undefined;
    if (!realm || realm.isMaster) throw notFound('No such tenant');
    return baseUrlOf(realm.name);
  }

  app.get<{ Params: Params }>('/:realm/ServiceProviderConfig', async (request, reply) =>
    send(reply, 200, serviceProviderConfig(await discoveryBase(request.params.realm))),
  );
  app.get<{ Params: Params }>('/:realm/ResourceTypes', async (request, reply) => {
    const all = resourceTypes(await discoveryBase(request.params.realm));
    return send(reply, 200, listResponse(all));
  });
  app.get<{ Params: Params }>('/:realm/ResourceTypes/:id', async (request, reply) => {
    const all = resourceTypes(await discoveryBase(request.params.realm));
    const found = all.find((type) => type.id === request.params.id);
    if (!found) throw notFound('No such resource type');
    return send(reply, 200, found);
  });
  app.get<{ Params: Params }>('/:realm/Schemas', async (request, reply) =>
    send(reply, 200, listResponse(schemas(await discoveryBase(request.params.realm)))),
  );
  app.get<{ Params: Params }>('/:realm/Schemas/:id', async (request, reply) => {
    const found = schemas(await discoveryBase(request.params.realm)).find(
      (schema) => schema.id === request.params.id,
    );
    if (!found) throw notFound('No such schema');
    return send(reply, 200, found);
  });

  // Users.
  async function sendUserList(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    source: Record<string, unknown>,
  ) {
    const scope = await scopeOf(request);
    const params = readListParams(source);
    const { total, resources } = await listUsers(scope, params);
    const shown = resources.map((user) =>
      project(user, USER_URNS, params.attributes, params.excludedAttributes),
    );
    return send(reply, 200, listResponse(shown, total, params.startIndex));
  }
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/:realm/Users',
    (request, reply) => sendUserList(request, reply, request.query),
  );
  app.post<{ Params: Params }>('/:realm/Users/.search', (request, reply) =>
    sendUserList(request, reply, (request.body ?? {}) as Record<string, unknown>),
  );
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/:realm/Users/:id',
    async (request, reply) => {
      const user = await getUser(await scopeOf(request), request.params.id!);
      const params = readListParams(request.query);
      return send(
        reply,
        200,
        project(user, USER_URNS, params.attributes, params.excludedAttributes),
        user,
      );
    },
  );
  app.post<{ Params: Params }>('/:realm/Users', async (request, reply) => {
    const user = await createUser(await scopeOf(request), request.body);
    return send(reply, 201, user, user);
  });
  app.put<{ Params: Params }>('/:realm/Users/:id', async (request, reply) => {
    const user = await replaceUser(
      await scopeOf(request),
      request.params.id!,
      request.body,
      ifMatchOf(request),
    );
    return send(reply, 200, user, user);
  });
  app.patch<{ Params: Params }>('/:realm/Users/:id', async (request, reply) => {
    const user = await patchUser(
      await scopeOf(request),
      request.params.id!,
      request.body,
      ifMatchOf(request),
    );
    return send(reply, 200, user, user);
  });
  app.delete<{ Params: Params }>('/:realm/Users/:id', async (request, reply) => {
    await deleteUser(await scopeOf(request), request.params.id!, ifMatchOf(request));
    return reply.code(204).send();
  });

  // Groups.
  async function sendGroupList(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    source: Record<string, unknown>,
  ) {
    const scope = await scopeOf(request);
    const params = readListParams(source);
    const { total, resources } = await listGroups(scope, params, wantsMembers(params));
    const shown = resources.map((group) =>
      project(group, GROUP_URNS, params.attributes, params.excludedAttributes),
    );
    return send(reply, 200, listResponse(shown, total, params.startIndex));
  }
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/:realm/Groups',
    (request, reply) => sendGroupList(request, reply, request.query),
  );
  app.post<{ Params: Params }>('/:realm/Groups/.search', (request, reply) =>
    sendGroupList(request, reply, (request.body ?? {}) as Record<string, unknown>),
  );
  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/:realm/Groups/:id',
    async (request, reply) => {
      const params = readListParams(request.query);
      const group = await getGroup(
        await scopeOf(request),
        request.params.id!,
        wantsMembers(params),
      );
      return send(
        reply,
        200,
        project(group, GROUP_URNS, params.attributes, params.excludedAttributes),
        group,
      );
    },
  );
  app.post<{ Params: Params }>('/:realm/Groups', async (request, reply) => {
    const group = await createGroup(await scopeOf(request), request.body);
    return send(reply, 201, group, group);
  });
  app.put<{ Params: Params }>('/:realm/Groups/:id', async (request, reply) => {
    const group = await replaceGroup(
      await scopeOf(request),
      request.params.id!,
      request.body,
      ifMatchOf(request),
    );
    return send(reply, 200, group, group);
  });
  app.patch<{ Params: Params }>('/:realm/Groups/:id', async (request, reply) => {
    const group = await patchGroup(
      await scopeOf(request),
      request.params.id!,
      request.body,
      ifMatchOf(request),
    );
    return send(reply, 200, group, group);
  });
  app.delete<{ Params: Params }>('/:realm/Groups/:id', async (request, reply) => {
    await deleteGroup(await scopeOf(request), request.params.id!, ifMatchOf(request));
    return reply.code(204).send();
  });
}
