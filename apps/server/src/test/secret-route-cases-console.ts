import { expect } from 'vitest';
import { openPage } from './secret-route-cases-more';
import { API, call, junkBody, secretQuery, type Drive } from './secret-route-cases';

type Case = [string, (d: Drive) => Promise<void>];

/** The assistant provider's key: the server sends it, and it never reaches a log line. */
export const ASSISTANT_API_KEY = 'sk-test-secret-assistant-key-5b7e';

/** Sends `body`, expecting `status`, then the junk body, expecting a 4xx. */
async function bodies(d: Drive, method: string, path: string, body: unknown, status: number) {
  const answer = await call(d, method, path, { body });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(status);
  const junk = await call(d, method, path, { body: junkBody(d) });
  expect(junk.status, `${method} ${path} with junk`).toBeGreaterThanOrEqual(400);
  expect(junk.status, `${method} ${path} with junk`).toBeLessThan(500);
}

const getOk = (path: string) => async (d: Drive) => {
  const answer = await call(d, 'GET', `${path}${secretQuery(d)}`);
  expect(answer.status, `GET ${path}: ${answer.text}`).toBe(200);
};

/** The tenant's sign-in security settings, set back to the defaults the other cases assume. */
export const settingsCases: Case[] = [
  [`GET ${API}/settings/security`, getOk(`${API}/settings/security`)],
  [
    `PUT ${API}/settings/security`,
    (d) =>
      bodies(
        d,
        'PUT',
        `${API}/settings/security`,
        {
          mfaPolicy: 'optional',
          passwordMinLength: 8,
          passwordRequireSpecial: true,
          passwordRefuseCommon: true,
        },
        200,
      ),
  ],
];

/**
 * What the console reads besides the entities: audit, dashboard, onboarding, the assistant
 * (whose provider echoes secrets back), the event stream (its token in the query), the pages a
 * mailed link opens, and the built console's own files.
 */
export const consoleCases: Case[] = [
  [`POST ${API}/audit/page`, (d) => bodies(d, 'POST', `${API}/audit/page`, {}, 200)],
  [
    `POST ${API}/mail-queue/page`,
    async (d) => {
      const path = `${API}/mail-queue/page`;
      const answer = await call(d, 'POST', path, { token: d.superToken, body: {} });
      expect(answer.status, answer.text).toBe(200);
      const junk = await call(d, 'POST', path, { token: d.superToken, body: junkBody(d) });
      expect(junk.status, `POST ${path} with junk`).toBeGreaterThanOrEqual(400);
      expect(junk.status, `POST ${path} with junk`).toBeLessThan(500);
    },
  ],
  [`GET ${API}/dashboard`, getOk(`${API}/dashboard`)],
  [`GET ${API}/onboarding`, getOk(`${API}/onboarding`)],
  [
    `PUT ${API}/onboarding`,
    (d) => bodies(d, 'PUT', `${API}/onboarding`, { step: 'first-step' }, 200),
  ],
  [
    `POST ${API}/onboarding/skip`,
    async (d) => {
      // No body is read here: the junk one is ignored.
      const skip = await call(d, 'POST', `${API}/onboarding/skip`, { body: junkBody(d) });
      expect(skip.status, skip.text).toBe(200);
    },
  ],
  [`GET ${API}/assistant`, getOk(`${API}/assistant`)],
  [
    `POST ${API}/assistant/chat`,
    async (d) => {
      const content = `My password is ${d.admin.password}, my token ${d.admin.refresh}.`;
      const chat = (messages: unknown) =>
        call(d, 'POST', `${API}/assistant/chat`, { body: { messages } });
      d.mock.script(
        { toolCalls: [{ name: 'list_users', arguments: { search: d.admin.password } }] },
        { text: 'Done.' },
      );
      expect((await chat([{ role: 'user', content }])).text).toContain('Done.');
      // Providers echo a wrong key in their error; it reaches the log masked.
      d.mock.script({ status: 401, body: `Incorrect API key provided: ${ASSISTANT_API_KEY}` });
      expect((await chat([{ role: 'user', content }])).text).toContain('event: error');
      const revoked = `data: {"error":{"message":"The key ${ASSISTANT_API_KEY} is revoked"}}\n\n`;
      d.mock.script({ raw: revoked });
      expect((await chat([{ role: 'user', content }])).text).toContain('event: error');
      expect((await chat(junkBody(d).messages.concat([{ role: 'x', content }]))).status).toBe(400);
    },
  ],
  [
    `GET ${API}/events`,
    async (d) => {
      const token = encodeURIComponent(d.admin.access);
      const open = (query: string, options = {}) =>
        call(d, 'GET', `${API}/events${query}`, { token: '', headersOnly: true, ...options });
      for (const name of ['access_token', 'access%5Ftoken', '%61ccess_token', 'access%5ftoken']) {
        expect((await open(`?${name}=${token}&lastEventId=1`)).status, name).toBe(200);
      }
      expect((await open(`?ACCESS_TOKEN=${token}`)).status).toBe(401);
      expect((await open(`?access_token=${encodeURIComponent(d.admin.refresh)}`)).status).toBe(401);
      const header = { token: d.admin.access, headers: { 'last-event-id': d.admin.refresh } };
      const password = encodeURIComponent(d.admin.password);
      expect((await open(`?password=${password}`, header)).status).toBe(200);
      // The token thrice under one name is not a string: refused, and still logged safely.
      expect((await open(secretQuery(d), header)).status).toBe(400);
    },
  ],
  [
    'GET /*',
    async (d) => {
      // The console's own pages; the sign-in pages (e.g. /newpassword?token=) have cases of
      // their own.
      for (const path of ['/?code=', '/home?token=']) {
        await openPage(d, `${path}${encodeURIComponent(d.admin.refresh)}`);
      }
      await openPage(d, `/dashboard/users${secretQuery(d)}`);
    },
  ],
];

/**
 * The built console's files (none while it is not built): each one asked for with every secret
 * in its query, as a page opened from a link carrying a token would ask for them.
 */
export async function driveConsoleFiles(d: Drive) {
  for (const path of d.consoleFiles.paths) {
    const answer = await call(d, 'GET', `${path}${secretQuery(d)}`, { token: '' });
    expect(answer.status, `GET ${path}`).toBe(200);
  }
}
