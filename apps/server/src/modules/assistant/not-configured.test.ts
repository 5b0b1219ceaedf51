import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createSignedInTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { ask, chat } from '../../test/helpers/assistant';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('assistant not configured', () => {
  it('says so in its status and answers chat with a 503 problem', async () => {
    const { token } = await createSignedInTenant(server);
    const status = await api(server, '/assistant', token);
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ data: { configured: false } });

    const answer = await chat(server, token, ask('How many users are inactive?'));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.problem).toMatchObject({
      status: 503,
      code: 'assistant.not_configured',
      detail: 'The assistant is not configured on this server.',
    });
  });
});
