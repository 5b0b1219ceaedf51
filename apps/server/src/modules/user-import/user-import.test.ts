import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_PERMISSIONS } from '@tc/contract/permissions';
import { auditLog, events } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';
import { mailOutbox } from '../../db/schema/mail';
import { principalById } from '../../identity/principal';
import {
  api,
  createSignedInTenant,
  signIn,
  uniqueName,
  type TenantFixture,
} from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import {
  applied,
  call,
  HEADER,
  mapped,
  rowsOf,
  upload,
  uploaded,
} from '../../test/helpers/user-import';
import { insertRole } from '../roles';
import { insertUser } from '../users';
import { applyImport } from './apply';

let server: TestServer;
let tenant: TenantFixture;
let token: string;
let otherToken: string;
let readerToken: string;
let importerToken: string;
let importerId: string;

async function userWithRole(permissions: readonly string[], name: string) {
  const db = server.database.db;
  const roleId = await insertRole(db, {
    tenantId: tenant.tenantId,
    name,
    permissionIds: permissions.map((permission) => tenant.permissionIds.get(permission)!),
  });
  const email = `${uniqueName('p')}@example.test`;
  const id = await insertUser(db, {
    tenantId: tenant.tenantId,
    email,
    firstName: 'Pat',
    lastName: 'Partial',
    roleId,
    password: TEST_PASSWORD,
  });
  return { id, token: (await signIn(server, tenant.name, email, TEST_PASSWORD)).access_token };
}

beforeAll(async () => {
  server = await startTestServer();
  ({ token, ...tenant } = await createSignedInTenant(server));
  ({ token: otherToken } = await createSignedInTenant(server));
  readerToken = (await userWithRole(['users:read'], 'Reader')).token;
  const importer = await userWithRole([...MEMBER_PERMISSIONS, 'users:write'], 'Importer');
  ({ token: importerToken, id: importerId } = importer);
  await userWithRole(['audit:read'], 'Auditor');
});
afterAll(() => server?.close());

const domain = () => `${uniqueName('d')}.example.test`;

async function usersNamed(emails: string[]) {
  return server.database.db
    .select({ id: users.id, email: users.email, status: users.status })
    .from(users)
    .where(and(eq(users.tenantId, tenant.tenantId), inArray(users.email, emails)));
}

describe('importing users from CSV', () => {
  it('uploads, previews the problems, applies, and answers the result file', async () => {
    const d = domain();
    const csv = [
      '\uFEFFVorname;Nachname;E-Mail;Rolle;Status',
      `Ada;Lovelace;ada@${d};Member;aktiv`,
      `Alan;Turing;ALAN@${d};member;inactive`,
      `Bad;Mail;not-an-address;Member;`,
      `Dup;Licate;ada@${d};Member;`,
      `No;Role;nobody@${d};Wizard;`,
      `;Missing;missing@${d};Member;`,
      `${'x'.repeat(1000)};Long;long@${d};Member;`,
      `Ctrl\u0007;Char;ctrl@${d};Member;`,
      `Ex;Isting;${tenant.adminEmail};Member;`,
      `"=cmd";Formula;formula@${d};Member;`,
    ].join('\r\n');
    const job = await uploaded(server, token, csv);
    expect(job.columns).toEqual(['Vorname', 'Nachname', 'E-Mail', 'Rolle', 'Status']);
    expect(job.suggestedMapping).toEqual({
      firstName: 0,
      lastName: 1,
      email: 2,
      role: 3,
      status: 4,
    });
    expect(job.rowCount).toBe(10);
    expect(job.state).toBe('uploaded');

    const checked = await mapped(server, token, job.id, false, job.suggestedMapping);
    expect(checked.totals).toEqual({ valid: 3, withErrors: 6, existing: 1 });
    const errors = await rowsOf(server, token, job.id, { status: 'error' });
    const codes = Object.fromEntries(
      errors.data.map((row) => [row.line, row.problems.map((problem) => problem.code)]),
    );
    expect(codes).toEqual({
      4: ['email.invalid'],
      5: ['user_import.email_duplicate'],
      6: ['user_import.role_unknown'],
      7: ['user.first_name_required'],
      8: ['user.first_name_too_long'],
      9: ['text.control_in_line'],
    });
    expect(errors.data.find((row) => row.line === 5)!.problems[0]!.params).toEqual({ line: 2 });
    // A long cell is shown by its start in the preview.
    expect(errors.data.find((row) => row.line === 8)!.firstName).toBe(`${'x'.repeat(300)}…`);
    expect((await rowsOf(server, token, job.id, { status: 'existing' })).data[0]!.line).toBe(10);

    const done = await applied(server, token, job.id);
    expect(done.state).toBe('done');
    expect(done.progress).toEqual({ done: 10, created: 3, skipped: 1, failed: 6 });
    const created = await usersNamed([`ada@${d}`, `alan@${d}`, `formula@${d}`]);
    expect(created).toHaveLength(3);
    expect(created.find((user) => user.email === `alan@${d}`)!.status).toBe('inactive');
    const audited = await server.database.db
      .select({ entityId: auditLog.entityId })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.tenantId, tenant.tenantId),
          eq(auditLog.entity, 'users'),
          inArray(
            auditLog.entityId,
            created.map((user) => user.id),
          ),
        ),
      );
    expect(audited).toHaveLength(3);
    // One change event for the batch, not one per user: consoles refresh once.
    const batchEvents = await server.database.db
      .select({ entity: events.entity })
      .from(events)
      .where(and(eq(events.tenantId, tenant.tenantId), eq(events.entityId, job.id)));
    expect(batchEvents).toEqual([{ entity: 'users' }]);
    // Not chosen: no invitation is queued.
    const mails = await server.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(inArray(mailOutbox.toAddress, [`ada@${d}`, `alan@${d}`]));
    expect(mails).toHaveLength(0);

    const result = await api(server, `/user-imports/${job.id}/result`, token);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toContain('text/csv');
    const lines = (await result.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('line,email,first_name,last_name,role,outcome,codes,reason');
    expect(lines.find((line) => line.startsWith('2,'))).toContain('created');
    expect(lines.find((line) => line.startsWith('10,'))).toContain(
      'skipped,user_import.email_exists',
    );
    expect(lines.find((line) => line.startsWith('11,'))).toContain(",'=cmd,");
  });

  it('creates nothing twice: applying again, or uploading the same file again', async () => {
    const d = domain();
    const csv = `${HEADER}\nAnn,One,ann@${d},Member,\nBen,Two,ben@${d},Member,\n`;
    const first = await uploaded(server, token, csv);
    await mapped(server, token, first.id);
    expect((await applied(server, token, first.id)).progress.created).toBe(2);
    expect((await applied(server, token, first.id)).progress).toMatchObject({
      created: 2,
      done: 2,
    });

    const again = await uploaded(server, token, csv);
    expect((await mapped(server, token, again.id)).totals).toEqual({
      valid: 0,
      withErrors: 0,
      existing: 2,
    });
    expect((await applied(server, token, again.id)).progress).toEqual({
      done: 2,
      created: 0,
      skipped: 2,
      failed: 0,
    });
    expect(await usersNamed([`ann@${d}`, `ben@${d}`])).toHaveLength(2);
  });

  it('creates each user once when two applies of one import run at the same time', async () => {
    const d = domain();
    const rows = Array.from({ length: 5 }, (_, i) => `C${i},D${i},c${i}@${d},Member,`);
    const job = await uploaded(server, token, [HEADER, ...rows].join('\n'));
    await mapped(server, token, job.id);
    const both = await Promise.all([
      applied(server, token, job.id),
      applied(server, token, job.id),
    ]);
    expect(both.map((one) => one.state)).toEqual(['done', 'done']);
    expect(both[1]!.progress).toEqual({ done: 5, created: 5, skipped: 0, failed: 0 });
    expect(await usersNamed(rows.map((_, i) => `c${i}@${d}`))).toHaveLength(5);
  });

  it('resumes an interrupted apply with the rows not done', async () => {
    const d = domain();
    const rows = Array.from({ length: 7 }, (_, i) => `P${i},Q${i},r${i}@${d},Member,`);
    const job = await uploaded(server, token, [HEADER, ...rows].join('\n'));
    await mapped(server, token, job.id);
    // Two batches of three, then "a crash": the run stops after the second batch.
    const principal = await principalById(server.database.db, tenant.tenantId, tenant.adminId);
    const stopped = await applyImport(
      {
        db: server.database.db,
        config: server.config,
        caller: { ...principal!, sessionId: randomUUID() },
        id: job.id,
      },
      { batchSize: 3, maxBatches: 2 },
    );
    expect(stopped.state).toBe('applying');
    expect(stopped.progress.created).toBe(6);
    const resumed = await applied(server, token, job.id);
    expect(resumed.progress).toEqual({ done: 7, created: 7, skipped: 0, failed: 0 });
    expect(await usersNamed(rows.map((_, i) => `r${i}@${d}`))).toHaveLength(7);
  });

  it('queues invitation mails only when chosen', async () => {
    const d = domain();
    const job = await uploaded(server, token, `${HEADER}\nIvy,Invited,ivy@${d},Member,\n`);
    await mapped(server, token, job.id, true);
    expect((await applied(server, token, job.id)).progress.created).toBe(1);
    const mails = await server.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, `ivy@${d}`));
    expect(mails).toHaveLength(1);
  });
});

describe('who may import', () => {
  it('refuses a user who may only read users', async () => {
    const response = await upload(server, readerToken, `${HEADER}\nA,B,a@x.test,Member,\n`);
    expect(response.status).toBe(403);
    const job = await uploaded(server, token, `${HEADER}\nA,B,a@${domain()},Member,\n`);
    for (const [method, path] of [
      ['GET', `/user-imports/${job.id}`],
      ['POST', `/user-imports/${job.id}/apply`],
      ['GET', `/user-imports/${job.id}/result`],
    ] as const) {
      expect((await call(server, readerToken, method, path)).status, path).toBe(403);
    }
  });

  it("answers 404 for another tenant's import", async () => {
    const job = await uploaded(server, token, `${HEADER}\nA,B,a@${domain()},Member,\n`);
    for (const [method, path, body] of [
      ['GET', `/user-imports/${job.id}`, undefined],
      ['PUT', `/user-imports/${job.id}/mapping`, { mapping: job.suggestedMapping }],
      ['POST', `/user-imports/${job.id}/rows`, {}],
      ['POST', `/user-imports/${job.id}/apply`, undefined],
    ] as const) {
      expect((await call(server, otherToken, method, path, body)).status, path).toBe(404);
    }
    expect((await api(server, `/user-imports/${job.id}/result`, otherToken)).status).toBe(404);
  });

  it('refuses, row by row, roles the importer may not give', async () => {
    const d = domain();
    const csv = `${HEADER}\nM,M,m@${d},Member,\nA,A,a@${d},Admin,\nU,U,u@${d},Auditor,\n`;
    const job = await uploaded(server, importerToken, csv);
    const checked = await mapped(server, importerToken, job.id);
    expect(checked.totals).toEqual({ valid: 1, withErrors: 2, existing: 0 });
    const errors = (await rowsOf(server, importerToken, job.id, { status: 'error' })).data;
    expect(errors.map((row) => row.problems[0]!.code)).toEqual([
      'grant.admin_role_give',
      'grant.role_not_held',
    ]);
    const done = await applied(server, importerToken, job.id);
    expect(done.progress).toEqual({ done: 3, created: 1, skipped: 0, failed: 2 });
    const [created] = await usersNamed([`m@${d}`]);
    const [entry] = await server.database.db
      .select({ actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'users'), eq(auditLog.entityId, created!.id)));
    expect(entry!.actorId).toBe(importerId);
    expect(await usersNamed([`a@${d}`, `u@${d}`])).toHaveLength(0);
  });
});
