import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { newUser, patchOf, scimTenant, USER_SCHEMA } from '../../test/helpers/scim';

// The user scenarios of the Entra ID SCIM validator and of Okta's SCIM 2.0 test suite, over HTTP.

let server: TestServer;
let scim: Awaited<ReturnType<typeof scimTenant>>;

beforeAll(async () => {
  server = await startTestServer();
  scim = await scimTenant(server);
});
afterAll(() => server?.close());

const fresh = () => `u${randomBytes(4).toString('hex')}@example.org`;

async function created(email = fresh(), extra: Record<string, unknown> = {}) {
  const answer = await scim.call('POST', '/Users', newUser(email, extra));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer;
}

describe('SCIM Users', () => {
  it('creates a user: 201, Location, ETag, the resource; invited by mail by default', async () => {
    const email = fresh();
    const answer = await created(email, { externalId: 'ext-create' });
    expect(answer.headers.get('content-type')).toContain('application/scim+json');
    expect(answer.headers.get('location')).toBe(answer.body.meta.location);
    expect(answer.headers.get('etag')).toMatch(/^W\/"\d+"$/);
    expect(answer.body).toMatchObject({
      schemas: [USER_SCHEMA],
      userName: email,
      externalId: 'ext-create',
      name: { givenName: 'Grace', familyName: 'Hopper' },
      emails: [{ value: email, type: 'work', primary: true }],
      active: true,
      groups: [{ display: 'Member' }],
      meta: { resourceType: 'User', version: answer.headers.get('etag') },
    });
    expect(answer.body.meta.location).toContain(
      `/scim/v2/${scim.tenant.name}/Users/${answer.body.id}`,
    );
    const mail = (await server.database.db.execute(sql`
      select count(*)::int as n from mail_outbox where to_address = ${email}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(mail.rows[0]!.n).toBe(1);
  });

  it('gets a user by id; an unknown id is 404 in the SCIM error shape', async () => {
    const { body } = await created();
    const got = await scim.call('GET', `/Users/${body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(body);
    const missing = await scim.call('GET', '/Users/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '404',
    });
    expect((await scim.call('GET', '/Users/not-a-uuid')).status).toBe(404);
  });

  it('filters by userName (eq, regardless of case), by externalId, and to nothing', async () => {
    const email = fresh();
    const { body } = await created(email, { externalId: 'Ext-Case' });
    const byName = await scim.call(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`,
    );
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
      Resources: [{ id: body.id }],
    });
    const byExternal = await scim.call(
      'GET',
      `/Users?filter=${encodeURIComponent('externalId eq "Ext-Case"')}`,
    );
    expect(byExternal.body.Resources.map((user: { id: string }) => user.id)).toEqual([body.id]);
    // externalId is case-exact.
    const otherCase = await scim.call(
      'GET',
      `/Users?filter=${encodeURIComponent('externalId eq "ext-case"')}`,
    );
    expect(otherCase.body.totalResults).toBe(0);
    const none = await scim.call(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "nobody@nowhere.test"')}`,
    );
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it('replaces a user (PUT)', async () => {
    const { body } = await created();
    const email = fresh();
    const put = await scim.call(
      'PUT',
      `/Users/${body.id}`,
      newUser(email, { name: { givenName: 'Ada', familyName: 'Lovelace' }, externalId: 'put-1' }),
    );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      userName: email,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      externalId: 'put-1',
    });
    expect(put.body.meta.version).not.toBe(body.meta.version);
  });

  it('deactivates by PATCH: Entra ID\'s "False" and Okta\'s path-less replace', async () => {
    const entra = (await created()).body;
    const answer = await scim.call(
      'PATCH',
      `/Users/${entra.id}`,
      patchOf({ op: 'Replace', path: 'active', value: 'False' }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.active).toBe(false);
    const okta = (await created()).body;
    const oktaAnswer = await scim.call(
      'PATCH',
      `/Users/${okta.id}`,
      patchOf({ op: 'replace', value: { active: false } }),
    );
    expect(oktaAnswer.body.active).toBe(false);
    const back = await scim.call(
      'PATCH',
      `/Users/${okta.id}`,
      patchOf({ op: 'replace', value: { active: true } }),
    );
    expect(back.body.active).toBe(true);
  });

  it('PATCHes e-mail, names and externalId (add, replace, remove)', async () => {
    const { body } = await created();
    const email = fresh();
    const answer = await scim.call(
      'PATCH',
      `/Users/${body.id}`,
      patchOf(
        { op: 'Add', path: 'emails[type eq "work"].value', value: email },
        { op: 'Replace', path: 'name.givenName', value: 'Barbara' },
        { op: 'replace', value: { name: { familyName: 'Liskov' } } },
        { op: 'add', path: 'externalId', value: 'patched-ext' },
        { op: 'Add', path: 'title', value: 'Engineer' },
      ),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      userName: email,
      emails: [{ value: email }],
      name: { givenName: 'Barbara', familyName: 'Liskov' },
      externalId: 'patched-ext',
    });
    const removed = await scim.call(
      'PATCH',
      `/Users/${body.id}`,
      patchOf({ op: 'remove', path: 'externalId' }),
    );
    expect(removed.body.externalId).toBeUndefined();
    const renamed = await scim.call(
      'PATCH',
      `/Users/${body.id}`,
      patchOf({ op: 'replace', path: 'userName', value: `X${email}` }),
    );
    expect(renamed.body.userName).toBe(`x${email}`);
  });

  it('DELETE deactivates by default, deletes when the tenant chose so', async () => {
    const { body } = await created();
    const deactivate = await scim.call('DELETE', `/Users/${body.id}`);
    expect(deactivate.status).toBe(204);
    expect((await scim.call('GET', `/Users/${body.id}`)).body.active).toBe(false);
    await server.database.db.execute(
      sql`update tenants set scim_delete = 'delete' where id = ${scim.tenant.tenantId}`,
    );
    try {
      const gone = (await created()).body;
      expect((await scim.call('DELETE', `/Users/${gone.id}`)).status).toBe(204);
      expect((await scim.call('GET', `/Users/${gone.id}`)).status).toBe(404);
    } finally {
      await server.database.db.execute(
        sql`update tenants set scim_delete = 'deactivate' where id = ${scim.tenant.tenantId}`,
      );
    }
  });

  it('a new user is active without mail when the tenant chose "activate"', async () => {
    await server.database.db.execute(
      sql`update tenants set scim_new_users = 'activate' where id = ${scim.tenant.tenantId}`,
    );
    try {
      const email = fresh();
      expect((await created(email)).body.active).toBe(true);
      const mail = (await server.database.db.execute(sql`
        select count(*)::int as n from mail_outbox where to_address = ${email}`)) as unknown as {
        rows: Array<{ n: number }>;
      };
      expect(mail.rows[0]!.n).toBe(0);
    } finally {
      await server.database.db.execute(
        sql`update tenants set scim_new_users = 'invite' where id = ${scim.tenant.tenantId}`,
      );
    }
  });

  it('a duplicate userName (any case) or externalId is 409 uniqueness', async () => {
    const email = fresh();
    await created(email, { externalId: 'dup-ext' });
    const sameName = await scim.call('POST', '/Users', newUser(email.toUpperCase()));
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    const sameExternal = await scim.call(
      'POST',
      '/Users',
      newUser(fresh(), { externalId: 'dup-ext' }),
    );
    expect(sameExternal.body).toMatchObject({ status: '409', scimType: 'uniqueness' });
  });

  it('If-Match with a stale version is 412; the current one passes', async () => {
    const { body } = await created();
    const changed = await scim.call(
      'PATCH',
      `/Users/${body.id}`,
      patchOf({ op: 'replace', path: 'name.givenName', value: 'New' }),
      { 'if-match': body.meta.version },
    );
    expect(changed.status).toBe(200);
    const stale = await scim.call(
      'PATCH',
      `/Users/${body.id}`,
      patchOf({ op: 'replace', path: 'name.givenName', value: 'Old' }),
      { 'if-match': body.meta.version },
    );
    expect(stale.status).toBe(412);
    expect(stale.body.status).toBe('412');
    expect(
      (await scim.call('DELETE', `/Users/${body.id}`, undefined, { 'if-match': body.meta.version }))
        .status,
    ).toBe(412);
    expect((await scim.call('GET', `/Users/${body.id}`)).body.name.givenName).toBe('New');
  });
});
