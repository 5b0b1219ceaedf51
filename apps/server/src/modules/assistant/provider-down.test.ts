import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSISTANT_ERROR_MESSAGE } from '@tc/contract/assistant';
import { api, createSignedInTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { startOpenAiMock } from '../../test/openai-mock';
import { ask, chat } from '../../test/helpers/assistant';

let server: TestServer;

beforeAll(async () => {
  // A provider that was there and is gone: its port is closed when the server calls it.
  const mock = await startOpenAiMock();
  await mock.close();
  server = await startTestServer({ ASSISTANT_BASE_URL: mock.url, ASSISTANT_API_KEY: 'sk-unused' });
});
afterAll(() => server?.close());

describe('provider down', () => {
  it("streams the spec's error message and ends", async () => {
    const { token } = await createSignedInTenant(server);
    expect(await (await api(server, '/assistant', token)).json()).toEqual({
      data: { configured: true },
    });
    const answer = await chat(server, token, ask('How many users are inactive?'));
    expect(answer.status).toBe(200);
    expect(answer.chunks).toEqual([{ error: ASSISTANT_ERROR_MESSAGE, event: 'error' }]);
  });
});
