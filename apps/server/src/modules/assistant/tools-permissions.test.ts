import { SYSTEM_PERMISSIONS } from '@tc/contract/permissions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callApi, createSignedInTenant, signIn } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { startOpenAiMock, type OpenAiMock } from '../../test/openai-mock';
import { insertRole } from '../roles';
import { insertUser } from '../users';
import { ask, chat, toolResults } from '../../test/helpers/assistant';

/**
 * Every tool answers only what its caller could read through the API. For each read
 * permission a user holds every other read permission but that one; each tool is asked in the
 * ways that could reach into the missing area, and its answer must not carry what only that
 * permission shows.
 */

const MISSING = ['users:read', 'roles:read', 'permissions:read', 'projects:read'] as const;
type Missing = (typeof MISSING)[number];
const READS = SYSTEM_PERMISSIONS.filter((name) => name.endsWith(':read'));

/** Text only a caller with the permission can read: no question below contains it. */
const ONLY_WITH: Record<Missing, string[]> = {
  // Users who own no project and are on none: only the user list shows them.
  'users:read': ['Ida', 'Ivo', 'idle@'],
  // A role nobody holds: only the roles list shows it.
  'roles:read': ['Auditors', 'Reads the audit trail'],
  'permissions:read': [],
  'projects:read': ['Runway Alpha', 'Terminal Apron', 'P-0'],
};

let mock: OpenAiMock;
let server: TestServer;
const tokens = new Map<Missing, string>();

beforeAll(async () => {
  mock = await startOpenAiMock();
  server = await startTestServer({ ASSISTANT_BASE_URL: mock.url, ASSISTANT_RATE_LIMIT: '1000' });
  const tenant = await createSignedInTenant(server);
  const permissionId = (name: string) => tenant.permissionIds.get(name)!;
  await server.database.db.transaction(async (tx) => {
    const user = (firstName: string, lastName: string, roleId: string, password?: string) =>
      insertUser(tx, {
        tenantId: tenant.tenantId,
        email: `${firstName}.${lastName}@${tenant.domain}`.toLowerCase(),
        firstName,
        lastName,
        roleId,
        password,
      });
    await user('Ida', 'Idle', tenant.memberRoleId);
    await user('Ivo', 'Idle', tenant.memberRoleId);
    await insertRole(tx, {
      tenantId: tenant.tenantId,
      name: 'Auditors',
      description: 'Reads the audit trail',
      permissionIds: [permissionId('audit:read')],
    });
    for (const missing of MISSING) {
      const roleId = await insertRole(tx, {
        tenantId: tenant.tenantId,
        name: `Without ${missing}`,
        permissionIds: READS.filter((name) => name !== missing).map(permissionId),
      });
      await user('Reader', missing.split(':')[0]!, roleId, tenant.password);
    }
  });
  const annaId = await server.database.db.transaction((tx) =>
    insertUser(tx, {
      tenantId: tenant.tenantId,
      email: `anna.berg@${tenant.domain}`,
      firstName: 'Anna',
      lastName: 'Berg',
      roleId: tenant.memberRoleId,
    }),
  );
  for (const [i, name] of ['Runway Alpha', 'Terminal Apron'].entries()) {
    const body = { name, projectNumber: `P-${i}`, budget: '1.00', ownerId: annaId };
    expect((await callApi(server, tenant.token, 'POST', '/projects/create', body)).status).toBe(
      201,
    );
  }
  for (const missing of MISSING) {
    const email = `reader.${missing.split(':')[0]}@${tenant.domain}`;
    tokens.set(missing, (await signIn(server, tenant.name, email, tenant.password)).access_token);
  }
});
afterAll(async () => {
  await server?.close();
  await mock?.close();
});
beforeEach(() => mock.reset());

/** Runs one tool for the reader without `missing`; answers its result as the model got it. */
async function runFor(missing: Missing, name: string, args: object) {
  mock.script({ toolCalls: [{ name, arguments: args }] }, { text: 'Done.' });
  const answer = await chat(server, tokens.get(missing), ask('Tell me.'));
  expect(answer.text).toBe('Done.');
  return toolResults(mock.requests[1])[0] as Record<string, unknown>;
}

const refused = (permission: string) => ({ error: expect.stringContaining(`"${permission}"`) });

interface Case {
  tool: string;
  args: object;
  missing: Missing;
  expected: unknown;
}

const CASES: Case[] = [
  { tool: 'count_users', missing: 'users:read', args: {}, expected: refused('users:read') },
  {
    tool: 'count_users',
    missing: 'roles:read',
    args: { roleName: 'Audit' },
    expected: { error: 'There is no role named "Audit".' },
  },
  {
    tool: 'count_users',
    missing: 'roles:read',
    args: { roleName: 'membe' },
    expected: { count: 3, status: 'any', role: 'Member' },
  },
  { tool: 'list_users', missing: 'users:read', args: {}, expected: refused('users:read') },
  {
    tool: 'list_users',
    missing: 'roles:read',
    args: { roleName: 'Audit' },
    expected: { error: 'There is no role named "Audit".' },
  },
  { tool: 'list_projects', missing: 'projects:read', args: {}, expected: refused('projects:read') },
  {
    tool: 'list_projects',
    missing: 'users:read',
    args: { ownerName: 'Id' },
    expected: { error: 'No user\'s name contains "Id".' },
  },
  {
    tool: 'list_projects',
    missing: 'users:read',
    args: { ownerName: 'berg@' },
    expected: { error: 'No user\'s name contains "berg@".' },
  },
  {
    tool: 'list_projects',
    missing: 'users:read',
    args: { ownerName: 'anna' },
    expected: expect.objectContaining({ owners: ['Anna Berg'], totalCount: 2 }),
  },
  { tool: 'list_roles', missing: 'roles:read', args: {}, expected: refused('roles:read') },
  ...MISSING.map((missing) => {
    const area = missing.split(':')[0]!;
    return {
      tool: 'tenant_summary',
      missing,
      args: {},
      expected: expect.objectContaining({ notPermitted: [area] }),
    };
  }),
];

describe('assistant tools answer only what the caller may read', () => {
  it.each(CASES)('$tool without $missing, $args', async ({ tool, args, missing, expected }) => {
    const result = await runFor(missing, tool, args);
    expect(result).toEqual(expected);
    const text = JSON.stringify(result);
    for (const hidden of ONLY_WITH[missing]) expect(text).not.toContain(hidden);
    if (tool === 'tenant_summary') expect(result).not.toHaveProperty(missing.split(':')[0]!);
  });
});
