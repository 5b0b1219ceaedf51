/**
 * Crash drill: clients create users through the API as fast as the server answers, each
 * creation queuing an invitation mail to a local SMTP server; the server is killed with
 * SIGKILL mid-load and started again on the same data. Then: every acknowledged user is
 * there, no creation is half-written, and the outbox delivers every invitation of an
 * acknowledged user at least once (duplicates are counted: delivery is at-least-once).
 *
 *   npx tsx bench/drills/kill9.ts [--engines postgres,pglite] [--clients 8] [--before 5] [--after 5]
 *
 * Results: a table on stdout and bench/results/kill9.json. See bench/drills/README.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { buildServer } from '../lib/build';
import { Cleanups } from '../lib/cleanups';
import { freshDatabase, parseEngines, type Engine } from '../lib/database';
import { resultsDir, root, serverMain } from '../lib/paths';
import { BOOTSTRAP_ADMIN_PASSWORD, freePort, passwordGrant } from '../lib/server';
import { table } from '../lib/table';
import {
  checkDatabase,
  DRILL_DOMAIN,
  seedTenant,
  type Acknowledged,
  type Findings,
} from './kill9-checks';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'postgres,pglite' },
    clients: { type: 'string', default: '8' },
    before: { type: 'string', default: '5' },
    after: { type: 'string', default: '5' },
  },
});
const CLIENTS = Number(args.clients);
// A message claimed by the killed process is leased for 120 s before another claim: wait longer.
const MAIL_TIMEOUT_MS = 240_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts every invitation delivered, by recipient. */
async function startMailbox(cleanups: Cleanups) {
  const received = new Map<string, number>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        for (const { address } of session.envelope.rcptTo) {
          received.set(address, (received.get(address) ?? 0) + 1);
        }
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.add(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${port}`, received };
}

/** The built server on a fixed port, so clients find it again after the restart. */
async function startServer(env: Record<string, string>, port: number) {
  const started = Date.now();
  const child = spawn(process.execPath, [serverMain], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
      BOOTSTRAP_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ACCESS_TOKEN_TTL: '3600',
      MFA_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      MAIL_POLL_MS: '200',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() - started > 300_000) throw new Error(`the server never got ready:\n${output}`);
    await sleep(50);
  }
  return { child, startMs: Date.now() - started };
}

const ended = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

interface Run {
  engine: Engine;
  attempted: number;
  acknowledged: number;
  failures: { inFlight: number; refused: number; answered: number };
  restartMs: number;
  findings: Findings;
  mailsSent: number;
  acknowledgedMailed: number;
  duplicates: number;
  allMailedAfterKillMs: number | undefined;
}

async function drill(engine: Engine): Promise<Run> {
  const cleanups = new Cleanups();
  try {
    const database = await freshDatabase(engine, { prefix: 'drill' });
    cleanups.add(database.drop);
    const mailbox = await startMailbox(cleanups);
    const env = { ...database.env, SMTP_URL: mailbox.url };
    const seeded = await seedTenant(database.env);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let server = await startServer(env, port);
    cleanups.add(() => ended(server.child, 'SIGKILL'));
    const { access_token: token } = await passwordGrant(url, seeded.realm, seeded.admin);
    const roleId = seeded.roleId;
    const call = (path: string, body: unknown) =>
      fetch(`${url}/api/v1.0${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const acknowledged: Acknowledged[] = [];
    let attempted = 0;
    let killedAt = Number.POSITIVE_INFINITY;
    // Requests the kill broke (sent before it), refused while the server was down, and
    // answered with anything but 201 (there should be none).
    const failures = { inFlight: 0, refused: 0, answered: 0 };
    let stopping = false;
    const client = async (n: number) => {
      for (let i = 0; !stopping; i += 1) {
        const email = `c${n}.u${i}@${DRILL_DOMAIN}`;
        attempted += 1;
        const sentAt = Date.now();
        const answer = await call('/users/create', {
          firstName: 'Drill',
          lastName: `User ${n}.${i}`,
          email,
          roleId,
        }).catch(() => undefined);
        if (answer?.status === 201) {
          const { data } = (await answer.json()) as { data: { id: string } };
          acknowledged.push({ id: data.id, email });
        } else {
          if (answer) failures.answered += 1;
          else if (sentAt < killedAt) failures.inFlight += 1;
          else failures.refused += 1;
          // The server is down (or restarting): try again shortly, with the next address.
          await sleep(20);
        }
      }
    };
    const running = Array.from({ length: CLIENTS }, (_, n) => client(n));
    await sleep(Number(args.before) * 1000);
    killedAt = Date.now();
    await ended(server.child, 'SIGKILL');
    const beforeKill = acknowledged.length;
    server = await startServer(env, port);
    const restartMs = server.startMs;
    console.error(
      `${engine}: killed after ${beforeKill} acknowledged; up again in ${restartMs} ms`,
    );
    await sleep(Number(args.after) * 1000);
    stopping = true;
    await Promise.all(running);

    const loadEnded = Date.now();
    const mailed = () => acknowledged.every((user) => mailbox.received.has(user.email));
    while (!mailed() && Date.now() - loadEnded < MAIL_TIMEOUT_MS) await sleep(200);
    const allMailedAfterKillMs = mailed() ? Date.now() - killedAt : undefined;
    await ended(server.child, 'SIGTERM');
    const findings = await checkDatabase(database.env, acknowledged);
    const counts = [...mailbox.received.values()];
    return {
      engine,
      attempted,
      acknowledged: acknowledged.length,
      failures,
      restartMs,
      findings,
      mailsSent: counts.reduce((sum, n) => sum + n, 0),
      acknowledgedMailed: acknowledged.filter((user) => mailbox.received.has(user.email)).length,
      duplicates: counts.reduce((sum, n) => sum + n - 1, 0),
      allMailedAfterKillMs,
    };
  } finally {
    await cleanups.run();
  }
}

const halfWritten = (f: Findings) =>
  f.withoutAudit +
  f.withoutEvent +
  f.withoutInvitationLink +
  f.withoutMail +
  f.orphanAudit +
  f.orphanMail;

async function main() {
  buildServer();
  const runs: Run[] = [];
  for (const engine of parseEngines(args.engines)) runs.push(await drill(engine));
  const rows = runs.map((run) => [
    run.engine,
    String(run.acknowledged),
    `${run.failures.inFlight} / ${run.failures.refused} / ${run.failures.answered}`,
    String(run.findings.present),
    String(run.findings.lost),
    String(run.findings.unacknowledged),
    String(halfWritten(run.findings)),
    run.findings.countsAgree ? 'yes' : 'NO',
    `${run.acknowledgedMailed}/${run.acknowledged}`,
    String(run.mailsSent),
    String(run.duplicates),
    String(run.restartMs),
    run.allMailedAfterKillMs === undefined ? 'never' : String(run.allMailedAfterKillMs),
  ]);
  console.log(
    table([
      [
        'engine',
        'acknowledged',
        'failed: in flight / refused / answered',
        'present',
        'lost',
        'committed, unanswered',
        'half-written',
        'counts agree',
        'acknowledged mailed',
        'mails sent',
        'duplicates',
        'restart ms',
        'all mailed, ms after the kill',
      ],
      ...rows,
    ]),
  );
  writeFileSync(join(resultsDir, 'kill9.json'), `${JSON.stringify(runs, null, 2)}\n`);
  const failed = runs.some(
    (run) =>
      run.findings.lost > 0 ||
      run.acknowledgedMailed < run.acknowledged ||
      !run.findings.countsAgree ||
      halfWritten(run.findings) > 0 ||
      run.failures.answered > 0,
  );
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
