import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callApi, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { startOpenAiMock, type OpenAiMock } from '../../test/openai-mock';
import { insertRole } from '../roles';
import { insertUser } from '../users';
import { ask, chat, toolResults } from '../../test/helpers/assistant';

let mock: OpenAiMock;
let server: TestServer;
interface Seeded extends TenantFixture {
  token: string;
}
let a: Seeded;
let b: Seeded;
let viewerToken: string;

/** A tenant with an owner named Anna Berg (in both tenants) and some inactive users. */
async function seedTenant(projects: string[], inactive: string[]): Promise<Seeded> {
  const tenant = await createTenant(server.database.db);
  const { access_token: token } = await signIn(
    server,
    tenant.name,
    tenant.adminEmail,
    tenant.password,
  );
  const add = (firstName: string, lastName: string, status: 'active' | 'inactive') =>
    insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email: `${firstName}.${lastName}@${tenant.domain}`.toLowerCase(),
      firstName,
      lastName,
      roleId: tenant.memberRoleId,
      status,
    });
  const annaId = await add('Anna', 'Berg', 'active');
  for (const name of inactive) await add(name, 'Idle', 'inactive');
  for (const [i, name] of projects.entries()) {
    const created = await callApi(server, token, 'POST', '/projects/create', {
      name,
      projectNumber: `P-${i}`,
      budget: '1000.00',
      ownerId: annaId,
    });
    expect(created.status).toBe(201);
  }
  return { ...tenant, token };
}

beforeAll(async () => {
  mock = await startOpenAiMock();
  server = await startTestServer({ ASSISTANT_BASE_URL: mock.url, ASSISTANT_RATE_LIMIT: '100' });
  a = await seedTenant(['Runway Alpha', 'Terminal Apron'], ['Ida', 'Ivo']);
  b = await seedTenant(['Bravo Secret Hangar'], ['Bob', 'Bea', 'Bill']);
  // A user of tenant A who may read projects, but not users.
  const viewerEmail = `viewer@${a.domain}`;
  await server.database.db.transaction(async (tx) => {
    const roleId = await insertRole(tx, {
      tenantId: a.tenantId,
      name: 'Project viewer',
      permissionIds: [a.permissionIds.get('projects:read')!],
    });
    await insertUser(tx, {
      tenantId: a.tenantId,
      email: viewerEmail,
      firstName: 'Vera',
      lastName: 'Viewer',
      roleId,
      password: a.password,
    });
  });
  viewerToken = (await signIn(server, a.name, viewerEmail, a.password)).access_token;
});
afterAll(async () => {
  await server?.close();
  await mock?.close();
});
beforeEach(() => mock.reset());

/** Asks with one scripted round of tool calls, then a scripted answer; returns what was sent. */
async function askWithTools(
  token: string,
  question: string,
  calls: { name: string; arguments: unknown }[],
) {
  mock.script({ toolCalls: calls }, { text: 'Here is what I found.' });
  const answer = await chat(server, token, ask(question));
  expect(answer.status).toBe(200);
  expect(answer.text).toBe('Here is what I found.');
  expect(answer.chunks.at(-1)).toEqual({ done: true });
  expect(mock.requests).toHaveLength(2);
  return { results: toolResults(mock.requests[1]), sent: JSON.stringify(mock.requests) };
}

const count = { name: 'count_users', arguments: { status: 'inactive' } };

describe('assistant tools', () => {
  it("answers 'how many users are inactive?' from the caller's tenant only", async () => {
    const forA = await askWithTools(a.token, 'How many users are inactive?', [count]);
    expect(forA.results).toEqual([{ count: 2, status: 'inactive', role: 'any' }]);
    // The assistant's tool call goes back with the results, as the protocol requires.
    const back = mock.requests[1]!.body.messages;
    expect(back.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_mock_0', type: 'function', function: { name: 'count_users' } }],
    });
    expect(back.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_mock_0' });

    mock.reset();
    const forB = await askWithTools(b.token, 'How many users are inactive?', [count]);
    expect(forB.results).toEqual([{ count: 3, status: 'inactive', role: 'any' }]);
  });

  it('lists users and projects of the own tenant, never the other one', async () => {
    const { results, sent } = await askWithTools(a.token, 'Which projects does Anna own?', [
      { name: 'list_projects', arguments: { ownerName: 'Anna' } },
      { name: 'list_users', arguments: { status: 'inactive' } },
    ]);
    const [projects, users] = results as [
      { owners: string[]; totalCount: number; projects: { name: string; owner: string }[] },
      { totalCount: number; users: { email: string }[] },
    ];
    expect(projects.owners).toEqual(['Anna Berg']);
    expect(projects.totalCount).toBe(2);
    expect(projects.projects.map((p) => p.name).sort()).toEqual(['Runway Alpha', 'Terminal Apron']);
    expect(projects.projects.every((p) => p.owner === 'Anna Berg')).toBe(true);
    expect(users.users.map((u) => u.email).sort()).toEqual([
      `ida.idle@${a.domain}`,
      `ivo.idle@${a.domain}`,
    ]);
    // Nothing of tenant B reached the provider.
    expect(sent).not.toContain(b.domain);
    expect(sent).not.toContain('Bravo Secret Hangar');
    expect(sent).not.toContain(b.name);
  });

  it('runs several tools in one round: roles and the tenant summary', async () => {
    const { results } = await askWithTools(a.token, 'Give me an overview', [
      { name: 'list_roles', arguments: {} },
      { name: 'tenant_summary', arguments: '' },
      { name: 'count_users', arguments: { roleName: 'member', status: 'active' } },
    ]);
    const [roles, summary, members] = results as [
      { roles: { name: string; userCount: number }[] },
      Record<string, unknown>,
      { count: number; role: string },
    ];
    expect(roles.roles.map((r) => r.name)).toEqual(['Admin', 'Member', 'Project viewer']);
    expect(summary).toMatchObject({
      tenant: a.name,
      users: { total: 5, active: 3, inactive: 2 },
      roles: 3,
      projects: 2,
    });
    expect(summary.notPermitted).toBeUndefined();
    expect(members).toEqual({ count: 1, status: 'active', role: 'Member' });
  });

  it('refuses a tool the caller lacks the permission for, and says why', async () => {
    const { results, sent } = await askWithTools(viewerToken, 'How many users are inactive?', [
      count,
      { name: 'tenant_summary', arguments: {} },
      { name: 'list_projects', arguments: { search: 'runway' } },
    ]);
    const [refused, summary, projects] = results as [
      { error: string },
      Record<string, unknown>,
      { totalCount: number },
    ];
    expect(refused.error).toContain('users:read');
    expect(summary).toEqual({
      tenant: a.name,
      projects: 2,
      notPermitted: ['users', 'roles', 'permissions'],
    });
    expect(projects.totalCount).toBe(1);
    expect(sent).not.toContain(`ida.idle@${a.domain}`);
  });

  it('tells the model about unknown tools and bad arguments', async () => {
    const { results } = await askWithTools(a.token, 'Delete everyone', [
      { name: 'delete_users', arguments: {} },
      { name: 'list_users', arguments: { limit: 1000 } },
      { name: 'list_users', arguments: '{"search": ' },
      { name: 'count_users', arguments: { roleName: 'Pilots' } },
    ]);
    expect(results).toEqual([
      { error: 'There is no tool named delete_users.' },
      { error: expect.stringContaining('Invalid arguments') },
      { error: 'The arguments are not valid JSON.' },
      { error: 'There is no role named "Pilots".' },
    ]);
  });

  it('stops offering tools after four rounds, so the model must answer', async () => {
    for (let i = 0; i < 4; i++) mock.script({ toolCalls: [count] });
    mock.script({ text: 'Two.' });
    const answer = await chat(server, a.token, ask('How many users are inactive?'));
    expect(answer.text).toBe('Two.');
    expect(mock.requests).toHaveLength(5);
    expect(mock.requests.map((r) => r.body.tools !== undefined)).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    // Every round's calls and results are kept in the conversation.
    expect(toolResults(mock.requests[4])).toHaveLength(4);
  });
});
