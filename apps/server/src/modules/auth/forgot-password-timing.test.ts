import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../../test/fixtures';
import { engine, startTestServer, type TestServer } from '../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { postJson, tenantHost } from '../../test/helpers/account';

// A known address writes a reset link and a mail, an unknown one writes nothing: if the
// answer waited for that work, its timing would tell which addresses have accounts. Proven
// by holding the link table locked: the answer must not wait for the write it causes.

let smtp: TestSmtpServer;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_POLL_MS: '100' });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe.runIf(engine === 'postgres')('forgot password', () => {
  it('answers before the known address has its link written, and the mail still goes', async () => {
    const tenant = await createTenant(server.database.db);
    const blocker = new pg.Client({ connectionString: server.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table action_tokens in access exclusive mode');
      const answer = await postJson(
        server,
        '/auth/forgot-password',
        { email: tenant.adminEmail },
        { host: tenantHost(server, tenant.domain) },
      );
      expect(answer.status).toBe(202);
      expect(smtp.messages.filter((m) => m.to.includes(tenant.adminEmail))).toHaveLength(0);
      await blocker.query('commit');
      await smtp.waitFor((m) => m.to.includes(tenant.adminEmail) && /Reset your/.test(m.subject));
    } finally {
      await blocker.end();
    }
  });
});
