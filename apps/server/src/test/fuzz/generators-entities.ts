import fc from 'fast-check';
import { AUDIT_ACTIONS, AUDIT_SORT_FIELDS } from '@tc/contract/audit';
import { COUNTRY_CODES } from '@tc/contract/countries';
import { MAIL_QUEUE_SORT_FIELDS, MAIL_QUEUE_STATUSES } from '@tc/contract/mail-queue';
import { ONBOARDING_STEPS } from '@tc/contract/onboarding';
import { PROJECT_SORT_FIELDS } from '@tc/contract/projects';
import { TENANT_SORT_FIELDS } from '@tc/contract/tenants';
import { USER_SORT_FIELDS } from '@tc/contract/users';
import { edgeNumber, emailAt, idFrom, typedText } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { fuzzRequest, headers, imageBody, jsonBody, pathSegment } from './http-parts';
import type { FuzzWorld, IdPools } from './world';

/** Generators of the tenant data routes (the five of each entity, logos, audit, onboarding). */

const API = '/api/v1.0';
export const bearer = (token: string) => headers({ authorization: `Bearer ${token}` });
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const status = fc.constantFrom('active', 'inactive');

/** A valid page request of the entity's own sort fields and filters. */
export function pageRequest(
  sortFields: readonly string[],
  filter: Record<string, fc.Arbitrary<unknown>>,
) {
  return fc.record(
    {
      pageIndex: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1_000_000 })),
      pageSize: fc.integer({ min: 1, max: 100 }),
      filter: fc.record({ search: typedText(20), ...filter }, { requiredKeys: [] }),
      listSort: fc.record({
        field: fc.constantFrom(...sortFields),
        direction: fc.constantFrom(0, 1),
      }),
      listGroup: fc.record({ field: typedText(10), direction: fc.constantFrom(0, 1) }),
    },
    { requiredKeys: [] },
  );
}

export interface EntityShape {
  entity: string;
  token: string;
  deleteMethod?: 'POST' | 'DELETE';
  page: fc.Arbitrary<unknown>;
  create: fc.Arbitrary<Record<string, unknown>>;
  pool: IdPools;
  /** Rows the fuzzing must not change but may try to delete (the server refuses). */
  untouchable: string[];
}

/** The five routes every entity has (crud-routes.ts). */
export function crudGenerators(shape: EntityShape): Record<string, fc.Arbitrary<FuzzRequest>> {
  const { entity, token, pool } = shape;
  const auth = bearer(token);
  const at = (path: string) => fc.constant(`${API}/${entity}/${path}`);
  const withId = (ids: string[], path: (id: string) => string) =>
    pathSegment(idFrom(ids)).map((id) => `${API}/${entity}/${path(id)}`);
  const update = fc
    .tuple(shape.create, idFrom(pool.kept))
    .map(([body, id]) => ({ ...body, id }) as Record<string, unknown>);
  const deleteMethod = shape.deleteMethod ?? 'POST';
  return {
    [`POST ${API}/${entity}/page`]: fuzzRequest({
      method: 'POST',
      path: at('page'),
      headers: auth,
      body: jsonBody(shape.page),
    }),
    [`POST ${API}/${entity}/create`]: fuzzRequest({
      method: 'POST',
      path: at('create'),
      headers: auth,
      body: jsonBody(shape.create),
    }),
    [`PUT ${API}/${entity}/update`]: fuzzRequest({
      method: 'PUT',
      path: at('update'),
      headers: auth,
      body: jsonBody(update),
    }),
    [`${deleteMethod} ${API}/${entity}/delete/:id`]: fuzzRequest({
      method: deleteMethod,
      path: withId([...pool.doomed, ...shape.untouchable], (id) => `delete/${id}`),
      headers: auth,
    }),
    [`GET ${API}/${entity}/:id`]: fuzzRequest({
      method: 'GET',
      path: withId([...pool.kept, ...shape.untouchable], (id) => id),
      headers: auth,
    }),
  };
}

function logoGenerators(entity: string, token: string, ids: string[]) {
  const path = pathSegment(idFrom(ids)).map((id) => `${API}/${entity}/${id}/logo`);
  return {
    [`PUT ${API}/${entity}/:id/logo`]: fuzzRequest({
      method: 'PUT',
      path,
      headers: bearer(token),
      body: imageBody,
    }),
    [`DELETE ${API}/${entity}/:id/logo`]: fuzzRequest({
      method: 'DELETE',
      path,
      headers: bearer(token),
    }),
  };
}

export function entityGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const { tenant, adminToken } = world;
  const roleIds = [tenant.memberRoleId, ...world.roles.kept];
  const permissionIds = [...world.systemPermissionIds, ...world.permissions.kept];
  const userIds = [tenant.adminId, ...world.users.kept];
  const description = fc.option(typedText(100), { nil: null });

  const roles = crudGenerators({
    entity: 'roles',
    token: adminToken,
    page: pageRequest(['name', 'status', 'createdAt'], { status }),
    create: fc.record(
      { name: typedText(30), description, status, permissionIds: fc.subarray(permissionIds) },
      { requiredKeys: ['name'] },
    ),
    pool: world.roles,
    untouchable: [tenant.adminRoleId],
  });
  const permissions = crudGenerators({
    entity: 'permissions',
    token: adminToken,
    page: pageRequest(['name', 'createdAt'], { roleId: idFrom(roleIds) }),
    create: fc.record(
      {
        name: fc.stringMatching(/^[a-z][a-z0-9:_.-]{0,30}$/),
        description,
        roleIds: fc.subarray(roleIds, { minLength: 1 }),
      },
      { requiredKeys: ['name', 'roleIds'] },
    ),
    pool: world.permissions,
    untouchable: world.systemPermissionIds,
  });
  const users = crudGenerators({
    entity: 'users',
    token: adminToken,
    page: pageRequest(USER_SORT_FIELDS, { status, roleId: idFrom(roleIds) }),
    create: fc.record(
      {
        firstName: typedText(30),
        lastName: typedText(30),
        email: emailAt(tenant.domain),
        roleId: idFrom(roleIds),
        status,
      },
      { requiredKeys: ['firstName', 'lastName', 'email', 'roleId'] },
    ),
    pool: world.users,
    // Deleting oneself is refused; changing oneself could take away the admin's rights.
    untouchable: [tenant.adminId],
  });
  const projects = crudGenerators({
    entity: 'projects',
    token: adminToken,
    page: pageRequest(PROJECT_SORT_FIELDS, {
      ownerId: idFrom(userIds),
      country: fc.constantFrom(...COUNTRY_CODES),
    }),
    create: fc.record(
      {
        name: typedText(40),
        short: optional(typedText(10)),
        description: optional(typedText(200)),
        ownerId: fc.option(idFrom(userIds), { nil: null }),
        projectNumber: typedText(20),
        budget: fc.oneof(fc.stringMatching(/^\d{1,14}(\.\d{1,2})?$/), edgeNumber),
        country: fc.oneof(fc.constantFrom(...COUNTRY_CODES), fc.constant('')),
        city: optional(typedText(30)),
        address: optional(typedText(60)),
        postalCode: optional(typedText(10)),
        peopleIds: fc.subarray(userIds),
      },
      { requiredKeys: ['name', 'projectNumber'] },
    ),
    pool: world.projects,
    untouchable: [],
  });
  const tenantName = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{1,20}$/);
  const tenants = crudGenerators({
    entity: 'tenants',
    token: world.superAdminToken,
    deleteMethod: 'DELETE',
    page: pageRequest(TENANT_SORT_FIELDS, {}),
    create: fc
      .record(
        {
          name: tenantName,
          domainLabel: fc.stringMatching(/^[a-z0-9]{1,20}$/),
          allowSignup: fc.boolean(),
          adminEmail: emailAt('example.test'),
        },
        { requiredKeys: ['name', 'domainLabel'] },
      )
      .map(({ domainLabel, ...body }) => ({ ...body, domain: `${domainLabel}.fuzz.test` })),
    pool: world.tenants,
    // The fuzzing's own tenant is never renamed or deleted: its admin is signed in.
    untouchable: [],
  });

  const onboardingWrite = fc.record(
    {
      step: fc.constantFrom(...ONBOARDING_STEPS),
      roleId: fc.option(idFrom(roleIds), { nil: null }),
      permissionId: fc.option(idFrom(permissionIds), { nil: null }),
      userId: fc.option(idFrom(userIds), { nil: null }),
    },
    { requiredKeys: ['step'] },
  );
  const auditFilter = {
    entity: fc.constantFrom('users', 'roles', 'permissions', 'projects', 'tenants'),
    entityId: idFrom([...userIds, ...roleIds]),
    action: fc.constantFrom(...AUDIT_ACTIONS),
    actorId: idFrom(userIds),
  };
  const constant = (path: string) => fc.constant(`${API}${path}`);
  const auth = bearer(adminToken);

  return {
    ...roles,
    ...permissions,
    ...users,
    ...projects,
    ...tenants,
    ...logoGenerators('projects', adminToken, world.projects.kept),
    ...logoGenerators('tenants', world.superAdminToken, [tenant.tenantId, ...world.tenants.kept]),
    [`POST ${API}/users/:id/resend-invitation`]: fuzzRequest({
      method: 'POST',
      path: pathSegment(idFrom([...world.users.kept, tenant.adminId])).map(
        (id) => `${API}/users/${id}/resend-invitation`,
      ),
      headers: headers({ authorization: `Bearer ${adminToken}`, 'accept-language': 'de-CH' }),
    }),
    [`POST ${API}/audit/page`]: fuzzRequest({
      method: 'POST',
      path: constant('/audit/page'),
      headers: auth,
      body: jsonBody(pageRequest(AUDIT_SORT_FIELDS, auditFilter)),
    }),
    [`POST ${API}/mail-queue/page`]: fuzzRequest({
      method: 'POST',
      path: constant('/mail-queue/page'),
      headers: bearer(world.superAdminToken),
      body: jsonBody(
        pageRequest(MAIL_QUEUE_SORT_FIELDS, { status: fc.constantFrom(...MAIL_QUEUE_STATUSES) }),
      ),
    }),
    [`GET ${API}/onboarding`]: fuzzRequest({
      method: 'GET',
      path: constant('/onboarding'),
      headers: auth,
    }),
    [`PUT ${API}/onboarding`]: fuzzRequest({
      method: 'PUT',
      path: constant('/onboarding'),
      headers: auth,
      body: jsonBody(onboardingWrite),
    }),
    [`POST ${API}/onboarding/skip`]: fuzzRequest({
      method: 'POST',
      path: constant('/onboarding/skip'),
      headers: auth,
    }),
    [`GET ${API}/dashboard`]: fuzzRequest({
      method: 'GET',
      path: constant('/dashboard'),
      headers: auth,
    }),
  };
}
