import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/mail';
import {
  api,
  createSignedInTenant,
  createTenant,
  signIn,
  tokenRequest,
  uniqueName,
} from '../test/fixtures';
import { engine, startTestServer, type TestServer } from '../test/harness';
import { LogCapture } from '../test/log-capture';

const METRICS_TOKEN = 'metrics-token-4f1c9e27b0d35a68';
const WRONG_PASSWORD = 'Wrong-metrics-pass#61';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Values the format spells in words (prom-client writes NaN as `Nan`). */
const SPECIAL_VALUES: Record<string, number> = { '+Inf': Infinity, '-Inf': -Infinity };
const NOT_A_NUMBER = new Set(['NaN', 'Nan']);

/** Prometheus's text format, sample lines only: `name{a="x",b="y"} value`. */
function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    const head = line.slice(0, space);
    const text = line.slice(space + 1);
    const value = SPECIAL_VALUES[text] ?? Number(text);
    const open = head.indexOf('{');
    const labels: Record<string, string> = {};
    if (open >= 0) {
      // Our label values hold no comma, quote or brace; the parser need not unescape.
      for (const pair of head.slice(open + 1, -1).split(',')) {
        if (!pair) continue;
        const equals = pair.indexOf('=');
        labels[pair.slice(0, equals)] = pair.slice(equals + 2, -1);
      }
    }
    expect(Number.isNaN(value) && !NOT_A_NUMBER.has(text), line).toBe(false);
    samples.push({ name: open >= 0 ? head.slice(0, open) : head, labels, value });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  return samples.find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

const scrapeWith = (server: TestServer, authorization?: string) =>
  fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });

async function scrape(server: TestServer) {
  const response = await scrapeWith(server, `Bearer ${METRICS_TOKEN}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  const text = await response.text();
  return { text, samples: parseSamples(text) };
}

/** Scrapes until `check` holds, for a state reached asynchronously (a stream's subscription). */
async function scrapeUntil(server: TestServer, check: (samples: Sample[]) => boolean) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { samples } = await scrape(server);
    if (check(samples) || Date.now() > deadline) return samples;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server?.close());

  it('answers 404 as for an unknown path, whatever the caller sends', async () => {
    for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}`, 'Bearer ']) {
      const response = await scrapeWith(server, authorization);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(((await response.json()) as { code: string }).code).toBe('request.route_not_found');
    }
  });

  it('is left out of the API documentation', async () => {
    const document = (await (await fetch(`${server.url}/api/docs/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).toContain('/healthz');
    expect(Object.keys(document.paths)).not.toContain('/metrics');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  const log = new LogCapture();
  beforeAll(async () => {
    // Two failures lock an account, so that a lockout is quick to provoke.
    server = await startTestServer(
      { METRICS_TOKEN, BRUTE_FORCE_FAILURE_FACTOR: '2', LOG_LEVEL: 'trace' },
      { logStream: log },
    );
  }, 120_000);
  afterAll(() => server?.close());

  it('refuses a missing or wrong token with 401 problem+json', async () => {
    const wrong = [
      undefined,
      `Bearer ${METRICS_TOKEN}x`,
      `Bearer ${METRICS_TOKEN.slice(0, -1)}`,
      METRICS_TOKEN,
      `Basic ${METRICS_TOKEN}`,
      'Bearer ',
    ];
    for (const authorization of wrong) {
      const response = await scrapeWith(server, authorization);
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const body = await response.text();
      expect(body).not.toContain('process_cpu');
      expect(body).not.toContain(METRICS_TOKEN);
    }
  });

  it('takes the bearer scheme in any letter case and after extra spaces (RFC 7235 §2.1)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      for (const authorization of [`${scheme} ${METRICS_TOKEN}`, `${scheme}   ${METRICS_TOKEN}`]) {
        const response = await scrapeWith(server, authorization);
        expect(response.status, authorization).toBe(200);
      }
    }
  });

  it('counts requests by route template, grants by type and outcome, and lockouts', async () => {
    const tenant = await createTenant(server.database.db);
    const password = { client_id: 'react-client', grant_type: 'password' };
    const failed = await tokenRequest(server, tenant.name, {
      ...password,
      username: tenant.adminEmail,
      password: WRONG_PASSWORD,
    });
    expect(failed.status).toBe(401);
    const { access_token: token } = await signIn(
      server,
      tenant.name,
      tenant.adminEmail,
      tenant.password,
    );
    for (let i = 0; i < 3; i += 1) expect((await api(server, '/auth/me', token)).status).toBe(200);
    const unknownPath = `/api/v1.0/${uniqueName('nowhere')}`;
    expect((await fetch(`${server.url}${unknownPath}`)).status).toBe(404);
    // A grant the OpenID provider answers (its reply bypasses Fastify's): an unknown client.
    const handedOff = await tokenRequest(server, tenant.name, {
      grant_type: 'client_credentials',
      client_id: 'no-such-client',
      client_secret: 'no-such-secret',
    });
    expect(handedOff.status).toBe(401);
    const odd = await tokenRequest(server, tenant.name, { grant_type: 'made-up', client_id: 'x' });
    expect(odd.ok).toBe(false);
    // Two failures lock an address no account has; the third attempt meets the lock.
    const nobody = { ...password, username: `nobody@${tenant.domain}`, password: WRONG_PASSWORD };
    for (let i = 0; i < 3; i += 1) await tokenRequest(server, tenant.name, nobody);

    const { text, samples } = await scrape(server);
    const requests = 'tenant_console_http_requests_total';
    const me = { method: 'GET', route: '/api/v1.0/auth/me', status_code: '200' };
    expect(valueOf(samples, requests, me)).toBe(3);
    expect(valueOf(samples, 'tenant_console_http_request_duration_seconds_count', me)).toBe(3);
    const unmatched = { method: 'GET', route: 'unmatched', status_code: '404' };
    expect(valueOf(samples, requests, unmatched)).toBeGreaterThanOrEqual(1);
    const grants = 'tenant_console_token_grants_total';
    const grant = (type: string, outcome: string) =>
      valueOf(samples, grants, { grant_type: type, outcome });
    // The wrong password, and the three attempts on the address no account has.
    expect(grant('password', 'failure')).toBe(4);
    expect(grant('password', 'success')).toBe(1);
    expect(grant('client_credentials', 'failure')).toBe(1);
    expect(grant('other', 'failure')).toBe(1);
    expect(valueOf(samples, 'tenant_console_login_lockout_refusals_total')).toBe(1);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    for (const secret of [METRICS_TOKEN, tenant.password, WRONG_PASSWORD, token, 'no-such']) {
      expect(text).not.toContain(secret);
    }
    // Only templates: neither the unknown path nor the realm's name becomes a label.
    expect(text).not.toContain(unknownPath);
    expect(text).not.toContain(tenant.name);
  }, 120_000);

  it('reads the pool, the listener and the open event streams when scraped', async () => {
    const { token } = await createSignedInTenant(server);
    const clients = 'tenant_console_event_stream_clients';
    const before = await scrape(server);
    expect(valueOf(before.samples, clients)).toBe(0);
    const pool = valueOf(before.samples, 'tenant_console_db_pool_max_connections');
    if (engine === 'postgres') {
      expect(pool).toBe(5);
      const open = valueOf(before.samples, 'tenant_console_db_pool_connections');
      expect(open).toBeGreaterThanOrEqual(1);
      const idle = valueOf(before.samples, 'tenant_console_db_pool_idle_connections');
      expect(idle).toBeLessThanOrEqual(open!);
      expect(valueOf(before.samples, 'tenant_console_db_pool_waiting_requests')).toBe(0);
    } else {
      expect(pool).toBeUndefined();
      expect(before.text).not.toContain('tenant_console_db_pool');
    }

    const stream = new AbortController();
    const response = await fetch(`${server.url}/api/v1.0/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: stream.signal,
    });
    expect(response.status).toBe(200);
    const open = await scrapeUntil(server, (s) => valueOf(s, clients) === 1);
    expect(valueOf(open, clients)).toBe(1);
    const state = 'tenant_console_notification_listener_state';
    expect(valueOf(open, state, { state: 'listening' })).toBe(1);
    expect(valueOf(open, state, { state: 'idle' })).toBe(0);
    stream.abort();
    const closed = await scrapeUntil(server, (s) => valueOf(s, clients) === 0);
    expect(valueOf(closed, clients)).toBe(0);
  }, 120_000);

  it('reports the mail outbox by status, failed messages among them', async () => {
    const tenant = await createTenant(server.database.db);
    const message = {
      tenantId: tenant.tenantId,
      toAddress: `someone@${tenant.domain}`,
      locale: 'en',
      subject: 'metrics',
      textBody: 'metrics',
      htmlBody: '<p>metrics</p>',
    };
    // Due in a day: the worker leaves them alone while the test reads them.
    const later = new Date(Date.now() + 24 * 3600 * 1000);
    await server.database.db.insert(mailOutbox).values([
      { ...message, nextAttemptAt: later },
      { ...message, nextAttemptAt: later, attempts: 2, lastError: 'connection refused' },
      { ...message, status: 'sent', attempts: 1, sentAt: new Date() },
    ]);
    const { samples } = await scrape(server);
    const messages = 'tenant_console_mail_outbox_messages';
    const failed = 'tenant_console_mail_outbox_failed_messages';
    expect(valueOf(samples, messages, { status: 'pending' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(samples, messages, { status: 'sent' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, messages, { status: 'dead' })).toBe(0);
    expect(valueOf(samples, failed, { status: 'pending' })).toBe(1);
    expect(valueOf(samples, failed, { status: 'sent' })).toBe(0);
  }, 120_000);

  it('still answers the other metrics while the outbox cannot be read', async () => {
    const { db } = server.database;
    await db.execute(sql`alter table mail_outbox rename to mail_outbox_hidden_by_test`);
    let scraped: Awaited<ReturnType<typeof scrape>>;
    try {
      scraped = await scrape(server);
    } finally {
      await db.execute(sql`alter table mail_outbox_hidden_by_test rename to mail_outbox`);
    }
    expect(scraped.text).not.toContain('tenant_console_mail_outbox_messages{');
    expect(valueOf(scraped.samples, 'tenant_console_event_stream_clients')).toBe(0);
    expect(log.text).toContain('mail outbox metrics not read');
    const { samples } = await scrape(server);
    expect(valueOf(samples, 'tenant_console_mail_outbox_messages', { status: 'dead' })).toBe(0);
  }, 120_000);

  it('never writes the token into a log line', () => {
    expect(log.lines.length).toBeGreaterThan(10);
    expect(log.text).not.toContain(METRICS_TOKEN);
  });
});
