import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSISTANT_ERROR_MESSAGE } from '@tc/contract/assistant';
import {
  api,
  createSignedInTenant,
  createTenant,
  refreshForm,
  signIn,
  tokenRequest,
} from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { LogCapture, secretForms } from '../../test/log-capture';
import { ask, chat } from '../../test/helpers/assistant';

const KEY = 'sk-hanging-provider-secret-42';
const TIMEOUT_SECONDS = 2;
/** What a user may wait for the error on a busy machine: the bound plus generous slack. */
const ANSWER_BOUND_MS = 10_000;

/** How the provider misbehaves: never answers, or answers a first piece and then stalls. */
type Hang = 'no-headers' | 'stalls-after-first-chunk';

interface UpstreamCall {
  authorization: string | undefined;
  /** Resolves when the connection our server opened for this call is closed. */
  closed: Promise<void>;
}

/** An OpenAI-compatible provider that accepts chat completions and never finishes them. */
class HangingProvider {
  hang: Hang = 'no-headers';
  readonly calls: UpstreamCall[] = [];
  private arrived: (() => void)[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      const closed = new Promise<void>((resolve) => request.socket.once('close', resolve));
      this.calls.push({ authorization: request.headers.authorization, closed });
      for (const notify of this.arrived.splice(0)) notify();
      request.resume();
      if (this.hang === 'stalls-after-first-chunk') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const choices = [{ index: 0, delta: { content: 'Par' }, finish_reason: null }];
        response.write(`data: ${JSON.stringify({ choices })}\n\n`);
      }
      // Nothing more, ever: only the other side can end this request.
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Resolves once the provider holds `count` calls in all. */
  async waitForCalls(count: number): Promise<void> {
    while (this.calls.length < count) {
      await new Promise<void>((resolve) => this.arrived.push(resolve));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Rejects if `promise` has not settled within `ms`: a bound on a wait, not a sleep. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const provider = new HangingProvider();
const log = new LogCapture();
let server: TestServer;

beforeAll(async () => {
  const url = await provider.start();
  server = await startTestServer(
    {
      ASSISTANT_BASE_URL: url,
      ASSISTANT_API_KEY: KEY,
      ASSISTANT_TIMEOUT: String(TIMEOUT_SECONDS),
      LOG_LEVEL: 'info',
    },
    { logStream: log },
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
  await provider.close();
});

/**
 * Starts a chat against the hanging provider and, while it hangs, has the same user and a user
 * of another tenant use the console: each of those must be answered before the chat ends.
 */
async function chatWhileOthersWork(hang: Hang) {
  provider.hang = hang;
  const tenant = await createTenant(server.database.db);
  const session = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
  const other = await createSignedInTenant(server);
  const callsBefore = provider.calls.length;
  const warningsBefore = timeoutWarnings();

  const started = Date.now();
  let chatEnded = false;
  const answer = chat(server, session.access_token, ask('How many users are inactive?')).then(
    (result) => {
      chatEnded = true;
      return { ...result, elapsed: Date.now() - started };
    },
  );
  await provider.waitForCalls(callsBefore + 1);
  const call = provider.calls[callsBefore]!;
  expect(call.authorization).toBe(`Bearer ${KEY}`);

  const others = [
    api(server, '/users/page', session.access_token, {
      method: 'POST',
      body: JSON.stringify({ pageSize: 10 }),
    }),
    tokenRequest(server, tenant.name, refreshForm(session.refresh_token)),
    api(server, '/users/page', other.token, {
      method: 'POST',
      body: JSON.stringify({ pageSize: 10 }),
    }),
  ];
  for (const response of await Promise.all(others)) {
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  }
  // The order of completion, not a timer: the console answered while the chat still hung.
  expect(chatEnded).toBe(false);

  const result = await within(answer, 60_000, 'the chat');
  // Our connection to the provider is closed, not left open for a provider that never ends it.
  await within(call.closed, 10_000, 'closing the provider connection');
  // The log says why the chat failed, and never holds the key it was sent with.
  expect(timeoutWarnings()).toBe(warningsBefore + 1);
  for (const form of secretForms(KEY)) expect(log.text).not.toContain(form);
  return result;
}

const timeoutWarnings = () =>
  log.lines.filter((line) => line.includes(`did not finish the answer within ${TIMEOUT_SECONDS} s`))
    .length;

describe('a provider that hangs', () => {
  it('that never sends headers: the chat ends with the error message within the bound', async () => {
    const answer = await chatWhileOthersWork('no-headers');
    expect(answer.status).toBe(200);
    expect(answer.chunks).toEqual([{ error: ASSISTANT_ERROR_MESSAGE, event: 'error' }]);
    expect(answer.elapsed).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000 - 100);
    expect(answer.elapsed).toBeLessThan(ANSWER_BOUND_MS);
  }, 120_000);

  it('that stalls after a first piece: the piece, then the error message within the bound', async () => {
    const answer = await chatWhileOthersWork('stalls-after-first-chunk');
    expect(answer.status).toBe(200);
    expect(answer.chunks).toEqual([
      { delta: 'Par' },
      { error: ASSISTANT_ERROR_MESSAGE, event: 'error' },
    ]);
    expect(answer.elapsed).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000 - 100);
    expect(answer.elapsed).toBeLessThan(ANSWER_BOUND_MS);
  }, 120_000);
});
