import { spawn, type ChildProcess } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/src/test/ports';
import { startOpenAiMock } from '../apps/server/src/test/openai-mock';
import { startSmtpServer, type TestSmtpServer } from '../apps/server/src/test/smtp';
import { ENV_FILE, type E2eEnv } from './env';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'apps/server/dist/main.js');
export const SUPER_ADMIN = { email: 'admin@example.com', password: 'E2e-super-admin-1!' };
// The demo seed's known credentials (apps/server/src/bootstrap/seed-demo.ts).
export const DEMO_ADMIN = { email: 'admin@demo.localhost', password: 'Demo-admin-2026!' };
/** Recipients the test SMTP server refuses, so that a spec can make mail that does not leave. */
export const UNDELIVERABLE_PREFIX = 'undeliverable-';

/** The received mails as JSON, for the specs (they run in other processes). */
function startMailbox(smtp: TestSmtpServer, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mails') {
      response.writeHead(404).end();
      return;
    }
    const to = url.searchParams.get('to')?.toLowerCase();
    const mails = smtp.messages
      .map((mail, index) => ({
        index,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      }))
      .filter((mail) => !to || mail.to.some((address) => address.toLowerCase() === to));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mails));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** What the server wrote so far, for an error that says why it is not there. */
const serverLog = (file: string) =>
  existsSync(file) ? readFileSync(file, 'utf8').slice(-4000) : '';

/**
 * Waits until the server started here answers: its /healthz names the instance id it was
 * given. A process that exited, or another process answering on the port (freePort's port
 * taken before the server bound it), stops the run at once with the server's log. PGlite
 * migrations and the demo seed take most of a minute when the machine is busy.
 */
async function waitUntilReady(
  url: string,
  child: ChildProcess,
  instance: string,
  logFile: string,
  timeoutMs = 180_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the e2e server exited with code ${child.exitCode}:\n${serverLog(logFile)}`);
    }
    const health = await fetch(`${url}/healthz`)
      .then((response) => response.json() as Promise<{ instance?: string }>)
      .catch(() => undefined);
    if (health && health.instance !== instance) {
      throw new Error(
        `another process answers on ${url}, not the e2e server:\n${serverLog(logFile)}`,
      );
    }
    if (health && (await fetch(`${url}/readyz`).catch(() => undefined))?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not become ready at ${url} within ${timeoutMs} ms`);
}

/**
 * Starts the built server (PGlite in a fresh DATA_DIR, demo seed) and a test SMTP server it
 * mails to; publishes where they are; the returned function stops both.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(MAIN)) {
    throw new Error(
      'apps/server/dist/main.js is missing: run `npm run build` first (npm run test:e2e does).',
    );
  }
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
    console.warn(
      'e2e: apps/web/dist is missing, so the console specs will fail: run `npm run build`.',
    );
  }
  const [port, mailPort] = [await freePort(), await freePort()];
  const smtp = await startSmtpServer(undefined, {
    refuse: (address) => address.toLowerCase().startsWith(UNDELIVERABLE_PREFIX),
  });
  const mailbox = await startMailbox(smtp, mailPort);
  // The assistant's provider: specs script its answers over HTTP (/__mock/*).
  const openAi = await startOpenAiMock();
  const dataDir = mkdtempSync(join(tmpdir(), 'tc-e2e-'));
  const logFile = join(ROOT, 'test-results/e2e-server.log');
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);

  const adminUrl = `http://localhost:${port}`;
  const instance = randomUUID();
  const server = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      // Both loopbacks: Chromium may try ::1 first for *.localhost.
      HOST: 'localhost',
      PUBLIC_URL: adminUrl,
      INSTANCE_ID: instance,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      BOOTSTRAP_ADMIN_EMAIL: SUPER_ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: SUPER_ADMIN.password,
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '100',
      // Only refused mail retries (nothing else is refused): it is dead after two quick tries.
      MAIL_RETRY_BASE_MS: '200',
      MAIL_RETRY_MAX_MS: '400',
      MAIL_MAX_ATTEMPTS: '2',
      // Sign-ins follow each other quickly here; Keycloak's quick-login check would lock users.
      BRUTE_FORCE_QUICK_LOGIN_MS: '0',
      // Every test signs in from this one address, faster than people would.
      TOKEN_RATE_LIMIT: '100000',
      TOKEN_REALM_RATE_LIMIT: '100000',
      // Every fresh tenant sets its administrator's password through the reset route.
      ACCOUNT_TOKEN_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      ASSISTANT_BASE_URL: openAi.url,
      ASSISTANT_API_KEY: 'e2e-assistant-key',
      ASSISTANT_MODEL: 'e2e-model',
      // Low, so the rate-limit spec reaches it quickly; other specs send a message or two.
      ASSISTANT_RATE_LIMIT: '5',
      // The webhooks spec's receiver listens on loopback.
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);

  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await new Promise((resolve) => mailbox.close(resolve));
    await smtp.close();
    await openAi.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(adminUrl, server, instance, logFile);
  } catch (error) {
    await stop();
    throw error;
  }

  const env: E2eEnv = {
    port,
    adminUrl,
    demoUrl: `http://demo.localhost:${port}`,
    mailUrl: `http://127.0.0.1:${mailPort}`,
    assistantMockUrl: `http://127.0.0.1:${openAi.port}`,
    superAdmin: SUPER_ADMIN,
    demoAdmin: DEMO_ADMIN,
  };
  writeFileSync(ENV_FILE, JSON.stringify(env, null, 2));
  // Workers start after the setup and inherit its environment.
  process.env.E2E_ENV = JSON.stringify(env);
  return stop;
}
