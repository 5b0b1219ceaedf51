import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/audit';
import { projectPeople } from '../../db/schema/projects';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertUser } from '../users';

let server: TestServer;
let tenant: TenantFixture;
let other: TenantFixture;
let token: string;
let otherToken: string;
let alice: string;
let bob: string;
let outsider: string;

const addUser = (t: TenantFixture, firstName: string, lastName: string) =>
  insertUser(server.database.db, {
    tenantId: t.tenantId,
    email: `${firstName}.${randomUUID().slice(0, 8)}@${t.domain}`.toLowerCase(),
    firstName,
    lastName,
    roleId: t.memberRoleId,
  });

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  other = await createTenant(server.database.db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password)).access_token;
  otherToken = (await signIn(server, other.name, other.adminEmail, other.password)).access_token;
  alice = await addUser(tenant, 'Alice', 'Archer');
  bob = await addUser(tenant, 'Bob', 'Builder');
  outsider = await addUser(other, 'Olga', 'Outsider');
});
afterAll(() => server?.close());

const send = (method: string, path: string, body?: unknown, bearer = token) =>
  api(server, path, bearer, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const create = (body: Record<string, unknown>, bearer = token) =>
  send('POST', '/projects/create', body, bearer);
const number = () => `P-${randomUUID().slice(0, 8)}`;

const full = () => ({
  name: 'Terminal 3 expansion',
  short: 'T3',
  description: 'New gates and a baggage hall.',
  ownerId: alice,
  projectNumber: number(),
  budget: '1250000.50',
  country: 'de',
  city: 'Frankfurt',
  address: 'Flughafenstraße 1',
  postalCode: '60547',
  peopleIds: [bob, alice, bob],
});

async function auditActions(entityId: string) {
  const rows = await server.database.db
    .select({ action: auditLog.action, actorId: auditLog.actorId })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'projects'), eq(auditLog.entityId, entityId)));
  return rows.map((row) => `${row.action}:${row.actorId === tenant.adminId}`).sort();
}

describe('create, read, update, delete', () => {
  it('stores every field of the form and answers the row', async () => {
    const input = full();
    const response = await create(input);
    expect(response.status).toBe(201);
    const { data } = await response.json();
    expect(data).toMatchObject({
      id: expect.any(String),
      name: input.name,
      short: 'T3',
      description: input.description,
      ownerId: alice,
      owner: 'Alice Archer',
      projectNumber: input.projectNumber,
      budget: '1250000.50',
      country: 'DE',
      city: 'Frankfurt',
      address: 'Flughafenstraße 1',
      postalCode: '60547',
      people: [
        { id: alice, name: 'Alice Archer' },
        { id: bob, name: 'Bob Builder' },
      ],
      logoUrl: null,
    });
    expect(data.peopleIds).toEqual([alice, bob]);
    expect(Date.parse(data.createdAt)).not.toBeNaN();

    const read = await send('GET', `/projects/${data.id}`);
    expect(read.status).toBe(200);
    expect((await read.json()).data).toEqual(data);
  });

  it('takes only name and project number, the rest empty', async () => {
    const response = await create({ name: 'Small', projectNumber: number(), short: '' });
    expect(response.status).toBe(201);
    expect((await response.json()).data).toMatchObject({
      short: null,
      description: null,
      ownerId: null,
      owner: null,
      budget: '0.00',
      country: null,
      peopleIds: [],
      people: [],
    });
  });

  it('replaces fields and people on update, and deletes with an audit trail', async () => {
    const created = (await (await create(full())).json()).data;
    const update = {
      ...full(),
      id: created.id,
      name: 'Terminal 3, phase 2',
      ownerId: null,
      budget: 99.5,
      country: 'CH',
      peopleIds: [bob],
      tenantId: other.tenantId,
    };
    const response = await send('PUT', '/projects/update', update);
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data).toMatchObject({
      id: created.id,
      name: 'Terminal 3, phase 2',
      ownerId: null,
      owner: null,
      budget: '99.50',
      country: 'CH',
      peopleIds: [bob],
      createdAt: created.createdAt,
    });
    expect(Date.parse(data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect((await (await send('GET', `/projects/${created.id}`)).json()).data).toEqual(data);

    const removed = await send('POST', `/projects/delete/${created.id}`);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ data: { id: created.id } });
    expect((await send('GET', `/projects/${created.id}`)).status).toBe(404);
    const people = await server.database.db
      .select()
      .from(projectPeople)
      .where(eq(projectPeople.projectId, created.id));
    expect(people).toEqual([]);
    expect(await auditActions(created.id)).toEqual(['create:true', 'delete:true', 'update:true']);
  });

  it('answers 404 for an unknown id on read, update and delete', async () => {
    const id = randomUUID();
    expect((await send('GET', `/projects/${id}`)).status).toBe(404);
    expect((await send('PUT', '/projects/update', { ...full(), id })).status).toBe(404);
    expect((await send('POST', `/projects/delete/${id}`)).status).toBe(404);
    expect((await send('GET', '/projects/not-an-id')).status).toBe(400);
  });
});

describe('budget', () => {
  const budgetOf = async (budget: unknown) => {
    const response = await create({ name: 'Budget', projectNumber: number(), budget });
    const body = await response.json();
    return { status: response.status, budget: body.data?.budget, error: body.errors?.budget };
  };

  it('keeps the exact decimal, the largest one included', async () => {
    expect(await budgetOf('12345678901234.99')).toMatchObject({ budget: '12345678901234.99' });
    expect(await budgetOf('99999999999999.99')).toMatchObject({ budget: '99999999999999.99' });
    expect(await budgetOf('0.1')).toMatchObject({ budget: '0.10' });
    expect(await budgetOf('7')).toMatchObject({ budget: '7.00' });
    expect(await budgetOf(1250000.5)).toMatchObject({ status: 201, budget: '1250000.50' });
    expect(await budgetOf(0)).toMatchObject({ status: 201, budget: '0.00' });
  });

  it('refuses negative, over-precise and float-like amounts with a field message', async () => {
    expect(await budgetOf('-1')).toEqual({
      status: 400,
      budget: undefined,
      error: 'The budget cannot be negative.',
    });
    expect((await budgetOf(-5)).error).toBe('The budget cannot be negative.');
    for (const bad of ['1.234', '1e5', '1,000', '.5', '1.', 'NaN', '123456789012345', '0x10', '']) {
      const result = await budgetOf(bad);
      expect(result.status, bad).toBe(400);
      expect(result.error, bad).toMatch(/at most 14 digits and 2 decimals/);
    }
    // Binary floats that are not the decimal they look like, or too long to be exact.
    for (const bad of [0.1 + 0.2, 1.005, 12345678901234.99, 1e21]) {
      const result = await budgetOf(bad);
      expect(result.status, String(bad)).toBe(400);
      expect(result.error, String(bad)).toMatch(/Send it as a string/);
    }
  });
});

describe('validation', () => {
  const errorsOf = async (patch: Record<string, unknown>) => {
    const response = await create({ ...full(), ...patch });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    return (await response.json()).errors as Record<string, string>;
  };

  it('names the field and the rule', async () => {
    expect((await errorsOf({ name: '  ' })).name).toBe('Enter a name.');
    expect((await errorsOf({ name: 'x'.repeat(201) })).name).toBe('Use at most 200 characters.');
    expect((await errorsOf({ short: 'x'.repeat(21) })).short).toBe('Use at most 20 characters.');
    expect((await errorsOf({ description: 'x'.repeat(2001) })).description).toBe(
      'Use at most 2000 characters.',
    );
    expect((await errorsOf({ projectNumber: '' })).projectNumber).toBe('Enter a project number.');
    expect((await errorsOf({ projectNumber: 'x'.repeat(51) })).projectNumber).toBe(
      'Use at most 50 characters.',
    );
    expect((await errorsOf({ country: 'XX' })).country).toBe('Choose a country (ISO 3166-1 code).');
    expect((await errorsOf({ country: 'DEU' })).country).toMatch(/Choose a country/);
    expect((await errorsOf({ city: 'x'.repeat(101) })).city).toBe('Use at most 100 characters.');
    expect((await errorsOf({ address: 'x'.repeat(301) })).address).toMatch(/at most 300/);
    expect((await errorsOf({ postalCode: 'x'.repeat(21) })).postalCode).toMatch(/at most 20/);
    expect((await errorsOf({ ownerId: 'alice' })).ownerId).toBe('Choose a user of this tenant.');
    expect((await errorsOf({ peopleIds: ['bob'] }))['peopleIds.0']).toBe(
      'Choose users of this tenant.',
    );
  });

  it('refuses an owner or people of another tenant, or unknown users', async () => {
    expect((await errorsOf({ ownerId: outsider })).ownerId).toBe('Unknown user.');
    expect((await errorsOf({ ownerId: randomUUID() })).ownerId).toBe('Unknown user.');
    expect((await errorsOf({ peopleIds: [alice, outsider] })).peopleIds).toBe('Unknown user.');
    expect((await errorsOf({ peopleIds: [randomUUID()] })).peopleIds).toBe('Unknown user.');
    const created = (await (await create(full())).json()).data;
    const response = await send('PUT', '/projects/update', {
      ...full(),
      id: created.id,
      peopleIds: [outsider],
    });
    expect(response.status).toBe(400);
    expect((await (await send('GET', `/projects/${created.id}`)).json()).data.peopleIds).toEqual([
      alice,
      bob,
    ]);
  });
});

describe('project number', () => {
  it('is unique per tenant, ignoring case, on create and update', async () => {
    const projectNumber = `Dup-${randomUUID().slice(0, 8)}`;
    expect((await create({ ...full(), projectNumber })).status).toBe(201);
    const duplicate = await create({ ...full(), projectNumber: projectNumber.toUpperCase() });
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json()).errors).toEqual({
      projectNumber: 'This project number is already used.',
    });

    const second = (await (await create(full())).json()).data;
    const update = await send('PUT', '/projects/update', {
      ...full(),
      id: second.id,
      projectNumber: projectNumber.toLowerCase(),
    });
    expect(update.status).toBe(409);
    expect((await update.json()).errors).toHaveProperty('projectNumber');

    // Another tenant may use the same number.
    const elsewhere = await create(
      { name: 'Elsewhere', projectNumber, peopleIds: [outsider] },
      otherToken,
    );
    expect(elsewhere.status).toBe(201);
  });
});
