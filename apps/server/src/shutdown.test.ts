import { rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteDataDir } from './test/database-templates';
import { createPostgresDatabase, engine, SUPER_ADMIN_PASSWORD } from './test/harness';
import { startServerProcess, type ServerProcess } from './test/server-process';

// The built server, stopped with SIGTERM as a process manager does.
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const database: Record<string, string> = {};
  if (engine === 'postgres') {
    const created = await createPostgresDatabase();
    cleanups.push(created.drop);
    database.DATABASE_URL = created.url;
  } else {
    const dataDir = pgliteDataDir('tc-shutdown-');
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    database.DATA_DIR = dataDir;
  }
  const server = await startServerProcess({
    BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN_PASSWORD,
    ...database,
    ...env,
  });
  cleanups.push(server.kill);
  return server;
}

const signInForm = new URLSearchParams({
  client_id: 'react-client',
  grant_type: 'password',
  username: 'admin@example.com',
  password: SUPER_ADMIN_PASSWORD,
}).toString();

async function signIn(server: ServerProcess): Promise<string> {
  const response = await fetch(`${server.url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: signInForm,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * A sign-in whose body arrives in two parts, as from a slow client: in flight from its first
 * part until `finish()`, on a connection of its own.
 */
function slowSignIn(server: ServerProcess) {
  const body = Buffer.from(signInForm);
  const half = Math.floor(body.length / 2);
  const request = httpRequest(`${server.url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': body.length,
      // The server answers "100 Continue" once it has parsed the request: then it is in flight.
      expect: '100-continue',
    },
  });
  const started = new Promise<void>((resolve) =>
    request.once('continue', () => request.write(body.subarray(0, half), () => resolve())),
  );
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
  });
  request.flushHeaders();
  return { started, finish: () => request.end(body.subarray(half)), done };
}

/**
 * Whether a new connection is refused (the server no longer listens), reset (accepted in the
 * moment the listening socket closed, then dropped), or its status.
 */
function newRequest(server: ServerProcess): Promise<'refused' | 'reset' | number> {
  return new Promise((resolve, reject) => {
    // A connection of its own: a kept-alive one would say nothing about new connections.
    const request = httpRequest(`${server.url}/healthz`, { agent: false, timeout: 5000 });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve('refused');
      else if (error.code === 'ECONNRESET') resolve('reset');
      else reject(error);
    });
    request.end();
  });
}

async function readToEnd(response: Response): Promise<string> {
  let text = '';
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) text += read.value;
  return text;
}

describe('SIGTERM', () => {
  it('finishes requests in flight, ends event streams with a retry hint, refuses new connections and exits 0', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT: '60' });
    const token = await signIn(server);
    const stream = await fetch(`${server.url}/api/v1.0/events?access_token=${token}`);
    expect(stream.status).toBe(200);
    const streamText = readToEnd(stream);
    const slow = slowSignIn(server);
    // Awaited below; should an assertion fail first, its end is not an unhandled rejection.
    slow.done.catch(() => undefined);
    await slow.started;

    server.child.kill('SIGTERM');
    // The stream ends first (preClose); its last line tells EventSource when to come back.
    const events = await streamText;
    expect(events.trimEnd().split('\n').at(-1)).toMatch(/^retry: \d+$/);

    // New connections are refused (at most answered 503 or dropped in the moment before) ...
    const statuses: Array<'refused' | 'reset' | number> = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      const status = await newRequest(server);
      statuses.push(status);
      if (status === 'refused') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(statuses.at(-1)).toBe('refused');
    expect(statuses.every((status) => typeof status === 'string' || status === 503)).toBe(true);
    // ... while the sign-in still in flight is answered in full.
    expect(server.child.exitCode).toBeNull();
    slow.finish();
    const answer = await slow.done;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty('access_token');

    expect(await server.exited).toBe(0);
  }, 120_000);

  it('exits 0 with one line when requests are still in flight after SHUTDOWN_TIMEOUT', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT: '1' });
    const slow = slowSignIn(server);
    await slow.started;
    const done = slow.done.catch(() => 'cut');
    const stopped = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - stopped).toBeGreaterThanOrEqual(900);
    expect(await done).toBe('cut');
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('shutdown timeout'));
    expect(lines).toHaveLength(1);
  }, 120_000);

  it('exits 0 within SHUTDOWN_TIMEOUT when whoever read its output went away before the signal', async () => {
    // A request still in flight makes it log a warning when the time is out, right before it
    // exits: that line is the first to meet the pipe nobody reads (EPIPE), and a logger that
    // flushes it synchronously at exit would retry it for ever.
    const server = await startServer({ SHUTDOWN_TIMEOUT: '2', LOG_LEVEL: 'warn' });
    const slow = slowSignIn(server);
    await slow.started;
    slow.done.catch(() => undefined);
    server.child.stdout!.destroy();
    server.child.kill('SIGTERM');
    const hung = new Promise<'still running'>((resolve) =>
      setTimeout(() => resolve('still running'), 60_000).unref(),
    );
    expect(await Promise.race([server.exited, hung])).toBe(0);
  }, 120_000);
});
