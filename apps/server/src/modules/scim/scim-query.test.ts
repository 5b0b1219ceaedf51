import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { newUser, scimTenant } from '../../test/helpers/scim';

// Listing: filters (SQL, not memory), sorting, 1-based pages and attribute selection.

let server: TestServer;
let scim: Awaited<ReturnType<typeof scimTenant>>;
const people = [
  ['Anna', 'Zimmer'],
  ['Bruno', 'Young'],
  ['Clara', 'Xavier'],
  ['Dario', 'Weber'],
  ['Emma', 'Vogel'],
];

beforeAll(async () => {
  server = await startTestServer();
  scim = await scimTenant(server);
  for (const [givenName, familyName] of people) {
    const email = `${givenName!.toLowerCase()}@list.example.org`;
    const answer = await scim.call(
      'POST',
      '/Users',
      newUser(email, { name: { givenName, familyName }, externalId: `x-${givenName}` }),
    );
    expect(answer.status).toBe(201);
  }
});
afterAll(() => server?.close());

const list = async (query: string) => {
  const answer = await scim.call('GET', `/Users?${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as {
    totalResults: number;
    startIndex: number;
    itemsPerPage: number;
    Resources: Array<Record<string, unknown> & { userName: string; name: { givenName: string } }>;
  };
};
const filtered = (filter: string, rest = '') => list(`filter=${encodeURIComponent(filter)}${rest}`);
const names = (body: Awaited<ReturnType<typeof list>>) =>
  body.Resources.map((user) => user.name.givenName);

describe('SCIM list queries', () => {
  it('co, sw, ew, ne, pr and emails[type eq "work"].value', async () => {
    expect(names(await filtered('userName sw "ANNA@"'))).toEqual(['Anna']);
    expect(
      names(await filtered('userName ew "@list.example.org" and name.familyName co "oge"')),
    ).toEqual(['Emma']);
    expect(
      (await filtered('userName ew "@list.example.org" and name.givenName ne "anna"')).totalResults,
    ).toBe(4);
    expect((await filtered('userName ew "@list.example.org" and externalId pr')).totalResults).toBe(
      5,
    );
    expect(
      names(await filtered('emails[type eq "work"].value eq "clara@list.example.org"')),
    ).toEqual(['Clara']);
    expect(names(await filtered('emails[type eq "work" and value co "dario"]'))).toEqual(['Dario']);
    expect(
      (await filtered('emails[type eq "home"].value eq "clara@list.example.org"')).totalResults,
    ).toBe(0);
  });

  it('and, or, not, and dates on meta.created / meta.lastModified', async () => {
    const either = await filtered(
      '(name.givenName eq "Anna" or name.givenName eq "Bruno") and userName ew "example.org"',
      '&sortBy=name.givenName',
    );
    expect(names(either)).toEqual(['Anna', 'Bruno']);
    const without = await filtered(
      'userName ew "@list.example.org" and not (name.givenName sw "A" or name.givenName sw "B")',
    );
    expect(without.totalResults).toBe(3);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      (await filtered(`userName ew "@list.example.org" and meta.created gt "${past}"`))
        .totalResults,
    ).toBe(5);
    expect(
      (await filtered(`userName ew "@list.example.org" and meta.lastModified ge "${future}"`))
        .totalResults,
    ).toBe(0);
    expect(
      (
        await filtered(
          `meta.lastModified lt "${future}" and active eq true and userName ew "list.example.org"`,
        )
      ).totalResults,
    ).toBe(5);
  });

  it('sorts by sortBy and sortOrder', async () => {
    const base = `filter=${encodeURIComponent('userName ew "@list.example.org"')}`;
    expect(names(await list(`${base}&sortBy=name.familyName`))).toEqual([
      'Emma',
      'Dario',
      'Clara',
      'Bruno',
      'Anna',
    ]);
    expect(names(await list(`${base}&sortBy=userName&sortOrder=descending`))).toEqual([
      'Emma',
      'Dario',
      'Clara',
      'Bruno',
      'Anna',
    ]);
    expect((await scim.call('GET', `/Users?${base}&sortBy=shoeSize`)).status).toBe(400);
  });

  it('pages with startIndex and count (1-based, totalResults of all)', async () => {
    const base = `filter=${encodeURIComponent('userName ew "@list.example.org"')}&sortBy=userName`;
    const second = await list(`${base}&startIndex=2&count=2`);
    expect(second).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect(names(second)).toEqual(['Bruno', 'Clara']);
    expect(names(await list(`${base}&startIndex=5&count=2`))).toEqual(['Emma']);
    expect((await list(`${base}&startIndex=9`)).Resources).toEqual([]);
    expect(await list(`${base}&count=0`)).toMatchObject({ totalResults: 5, itemsPerPage: 0 });
    // Without a filter: every user of the tenant (the administrator and the five).
    expect((await list('count=1')).totalResults).toBe(6);
    // count is capped at 200; startIndex below 1 counts as 1.
    expect((await list(`${base}&count=100000&startIndex=-3`)).startIndex).toBe(1);
  });

  it('attributes and excludedAttributes', async () => {
    const filter = `filter=${encodeURIComponent('userName eq "anna@list.example.org"')}`;
    const only = (await list(`${filter}&attributes=userName,name.familyName`)).Resources[0]!;
    expect(Object.keys(only).sort()).toEqual(['id', 'name', 'schemas', 'userName']);
    expect(only.name).toEqual({ familyName: 'Zimmer' });
    const without = (await list(`${filter}&excludedAttributes=emails,groups,meta`)).Resources[0]!;
    expect(without).not.toHaveProperty('emails');
    expect(without).not.toHaveProperty('meta');
    expect(without).toHaveProperty('userName');
    const id = without.id as string;
    const single = await scim.call('GET', `/Users/${id}?attributes=active`);
    expect(Object.keys(single.body).sort()).toEqual(['active', 'id', 'schemas']);
  });

  it('POST /.search reads the same parameters from its body', async () => {
    const answer = await scim.call('POST', '/Users/.search', {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      filter: 'userName sw "bruno@"',
      attributes: ['userName'],
      count: 10,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.Resources).toEqual([
      expect.objectContaining({ userName: 'bruno@list.example.org' }),
    ]);
  });
});
