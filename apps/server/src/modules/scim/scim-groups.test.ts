import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, signIn } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  GROUP_SCHEMA,
  newUser,
  patchOf,
  roleWith,
  scimApplication,
  scimTenant,
} from '../../test/helpers/scim';

// Groups are the tenant's roles; a user holds exactly one, so leaving a group means Member.

let server: TestServer;
let scim: Awaited<ReturnType<typeof scimTenant>>;

beforeAll(async () => {
  server = await startTestServer();
  scim = await scimTenant(server);
});
afterAll(() => server?.close());

const fresh = (prefix = 'g') => `${prefix}${randomBytes(4).toString('hex')}`;

async function user() {
  const answer = await scim.call('POST', '/Users', newUser(`${fresh('u')}@example.org`));
  expect(answer.status).toBe(201);
  return answer.body as { id: string; userName: string };
}

const roleOf = async (id: string) =>
  (await scim.call('GET', `/Users/${id}`)).body.groups[0].display as string;

describe('SCIM Groups', () => {
  it('creates a group (a role), gets it and finds it by displayName', async () => {
    const member = await user();
    const name = fresh('Team ');
    const created = await scim.call('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: name,
      members: [{ value: member.id }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.meta.location);
    expect(created.body).toMatchObject({ displayName: name, members: [{ value: member.id }] });
    expect(await roleOf(member.id)).toBe(name);
    const got = await scim.call('GET', `/Groups/${created.body.id}`);
    expect(got.body.displayName).toBe(name);
    const filter = encodeURIComponent(`displayName eq "${name.toUpperCase()}"`);
    const found = await scim.call('GET', `/Groups?filter=${filter}&excludedAttributes=members`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(created.body.id);
    expect(found.body.Resources[0].members).toBeUndefined();
    const duplicate = await scim.call('POST', '/Groups', { displayName: name });
    expect(duplicate.body).toMatchObject({ status: '409', scimType: 'uniqueness' });
  });

  it('adds and removes members by PATCH (Okta and Entra ID shapes); removal means Member', async () => {
    const group = (await scim.call('POST', '/Groups', { displayName: fresh('Crew ') })).body;
    const [a, b, c] = [await user(), await user(), await user()];
    const added = await scim.call(
      'PATCH',
      `/Groups/${group.id}`,
      patchOf({
        op: 'add',
        path: 'members',
        value: [{ value: a.id }, { value: b.id }, { value: c.id }],
      }),
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.members.map((m: { value: string }) => m.value).sort()).toEqual(
      [a.id, b.id, c.id].sort(),
    );
    const filterByMember = encodeURIComponent(`members[value eq "${a.id}"]`);
    expect((await scim.call('GET', `/Groups?filter=${filterByMember}`)).body.Resources[0].id).toBe(
      group.id,
    );
    // Okta: remove with a value filter in the path.
    const okta = await scim.call(
      'PATCH',
      `/Groups/${group.id}`,
      patchOf({ op: 'remove', path: `members[value eq "${a.id}"]` }),
    );
    expect(okta.status).toBe(200);
    expect(await roleOf(a.id)).toBe('Member');
    // Entra ID: "Remove" with the members as the value.
    await scim.call(
      'PATCH',
      `/Groups/${group.id}`,
      patchOf({ op: 'Remove', path: 'members', value: [{ value: b.id }] }),
    );
    expect(await roleOf(b.id)).toBe('Member');
    expect(await roleOf(c.id)).toBe(group.displayName);
    // Rename by a path-less replace, as Okta sends it (with the group's own id).
    const renamed = await scim.call(
      'PATCH',
      `/Groups/${group.id}`,
      patchOf({ op: 'replace', value: { id: group.id, displayName: `${group.displayName} 2` } }),
    );
    expect(renamed.body.displayName).toBe(`${group.displayName} 2`);
    const stale = await scim.call(
      'PATCH',
      `/Groups/${group.id}`,
      patchOf({ op: 'add', path: 'members', value: [{ value: a.id }] }),
      { 'if-match': group.meta.version },
    );
    expect(stale.status).toBe(412);
    expect((await scim.call('DELETE', `/Groups/${group.id}`)).status).toBe(204);
    expect(await roleOf(c.id)).toBe('Member');
  });

  it('built-in groups are neither renamed nor deleted', async () => {
    const filter = encodeURIComponent('displayName eq "Admin"');
    const admin = (await scim.call('GET', `/Groups?filter=${filter}`)).body.Resources[0];
    const rename = await scim.call(
      'PATCH',
      `/Groups/${admin.id}`,
      patchOf({ op: 'replace', path: 'displayName', value: 'Boss' }),
    );
    expect(rename.body).toMatchObject({ status: '400', scimType: 'mutability' });
    expect((await scim.call('DELETE', `/Groups/${admin.id}`)).body.scimType).toBe('mutability');
  });

  it('nobody grants what they do not hold: a client with only scim cannot make an Admin', async () => {
    const roleId = await roleWith(server, scim.tenant.tenantId, fresh('Provisioner '), ['scim']);
    const limited = await scimApplication(server, scim.tenant, fresh('limited-'), [roleId]);
    const target = await user();
    const filter = encodeURIComponent('displayName eq "Admin"');
    const admin = (await scim.call('GET', `/Groups?filter=${filter}`)).body.Resources[0];
    const refused = await scim.call(
      'PATCH',
      `/Groups/${admin.id}`,
      patchOf({ op: 'add', path: 'members', value: [{ value: target.id }] }),
      {},
      limited,
    );
    expect(refused.status).toBe(403);
    expect(await roleOf(target.id)).toBe('Member');
    // Nor may it change the tenant's administrator.
    const onAdmin = await scim.call(
      'PATCH',
      `/Users/${scim.tenant.adminId}`,
      patchOf({ op: 'replace', value: { active: false } }),
      {},
      limited,
    );
    expect(onAdmin.status).toBe(403);
  });

  it('a SCIM-created user shows in the console API, and the change is audited', async () => {
    const created = await user();
    const { access_token: token } = await signIn(
      server,
      scim.tenant.name,
      scim.tenant.adminEmail,
      scim.tenant.password,
    );
    const page = await callApi<{ id: string; email: string }>(
      server,
      token,
      'POST',
      '/users/page',
      {
        page: 1,
        pageSize: 10,
        search: created.userName,
      },
    );
    expect(page.status).toBe(200);
    expect(page.body.data.data.map((row) => row.id)).toContain(created.id);
    const audit = await callApi<{ entityId: string; action: string }>(
      server,
      token,
      'POST',
      '/audit/page',
      { pageIndex: 1, pageSize: 50 },
    );
    expect(audit.status).toBe(200);
    expect(
      audit.body.data.data.some((row) => row.entityId === created.id && row.action === 'create'),
    ).toBe(true);
  });
});
