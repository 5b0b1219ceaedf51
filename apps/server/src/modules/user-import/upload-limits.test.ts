import { request as httpRequest } from 'node:http';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userImports } from '../../db/schema/user-import';
import { createSignedInTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { HEADER, problemOf, upload, uploaded } from '../../test/helpers/user-import';

let server: TestServer;
let tenant: TenantFixture;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token, ...tenant } = await createSignedInTenant(server));
});
afterAll(() => server?.close());

async function importsKept() {
  const [row] = await server.database.db
    .select({ value: count() })
    .from(userImports)
    .where(eq(userImports.tenantId, tenant.tenantId));
  return row!.value;
}

/** Uploads `body` and expects the refusal `code` with `status`; nothing of it may be kept. */
async function refused(body: string | Uint8Array, status: number, code: string, type?: string) {
  const before = await importsKept();
  const response = await upload(server, token, body, type);
  expect(response.status).toBe(status);
  expect((await problemOf(response)).code).toBe(code);
  expect(await importsKept()).toBe(before);
}

const ROW = 'Ada,Lovelace,ada@example.test,Member,';

describe('an uploaded file', () => {
  it('must be sent as text/csv', async () => {
    await refused(`${HEADER}\n${ROW}\n`, 415, 'user_import.body_not_csv', 'text/plain');
    await refused('{"rows":[]}', 415, 'user_import.body_not_csv', 'application/json');
    await refused(`${HEADER}\n${ROW}\n`, 415, 'request.refused', 'application/x-unknown');
  });

  it('must be UTF-8, throughout; a byte order mark is fine', async () => {
    const latin1 = Buffer.from(
      `${HEADER}\nRen\u00e9,M\u00fcller,r@example.test,Member,\n`,
      'latin1',
    );
    await refused(latin1, 400, 'user_import.not_utf8');
    const mixed = Buffer.concat([
      Buffer.from(`${HEADER}\nJos\u00e9,A,j@example.test,Member,\n`, 'utf8'),
      Buffer.from('Ren\u00e9,B,r@example.test,Member,\n', 'latin1'),
    ]);
    await refused(mixed, 400, 'user_import.not_utf8');
    await refused(
      `${HEADER}\n${ROW}\n`,
      400,
      'user_import.not_utf8',
      'text/csv; charset=windows-1252',
    );
    const bom = await uploaded(server, token, `\uFEFF${HEADER}\n${ROW}\n`);
    expect(bom.columns[0]).toBe('first name');
  });

  it('is refused when empty, without a header, or without rows', async () => {
    await refused('', 400, 'user_import.empty_file');
    await refused('\n\n', 400, 'user_import.empty_file');
    await refused(`${ROW}\n${ROW}\n`, 400, 'user_import.header_missing');
    await refused(`${HEADER}\n`, 400, 'user_import.no_rows');
  });

  it('is refused when it is not CSV', async () => {
    await refused(`${HEADER}\n"Ada,Lovelace,ada@example.test\n`, 400, 'user_import.not_csv');
    await refused(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), 400, 'user_import.not_csv');
  });

  it('may have at most 50 columns; a line of a million is refused as it is read', async () => {
    await refused(`${HEADER}${',x'.repeat(46)}\n${ROW}\n`, 400, 'user_import.too_many_columns');
    const started = performance.now();
    await refused(`${HEADER}\n${','.repeat(1_000_000)}\n`, 400, 'user_import.too_many_columns');
    expect(performance.now() - started).toBeLessThan(5_000);
    // Columns are counted per line, whatever ends it: LF, CRLF or a lone CR.
    for (const end of ['\n', '\r\n', '\r']) {
      const rows = Array.from({ length: 30 }, (_, i) => `A,B,c${i}@example.test,Member,`);
      expect((await uploaded(server, token, [HEADER, ...rows].join(end))).rowCount).toBe(30);
    }
    // 50 columns are fine.
    await uploaded(server, token, `${HEADER}${',x'.repeat(45)}\n${ROW}\n`);
  });

  it('may not have a line longer than 64 K characters, even of a 100 MB body', async () => {
    await refused(
      `${HEADER}\nAda,${'x'.repeat(70_000)},a@example.test,Member,\n`,
      413,
      'user_import.line_too_long',
    );
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let sent = 0;
    const hundredMegabytes = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(Buffer.from(`${HEADER}\n`));
        if (sent >= 100) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${server.url}/api/v1.0/user-imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: hundredMegabytes,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await problemOf(response)).code).toBe('user_import.line_too_long');
    expect(sent).toBeLessThan(100);
  });

  it('may not be larger than 50 MB (said by its length, or found while reading)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${server.url}/api/v1.0/user-imports`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'text/csv',
          'content-length': String(60 * 1024 * 1024),
        },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.write(`${HEADER}\n`);
    });
    expect(status).toBe(413);
  });

  it('may have at most 200,000 rows', async () => {
    const rows = `${'a,b,c@example.test,Member,\n'.repeat(200_001)}`;
    await refused(`${HEADER}\n${rows}`, 413, 'user_import.too_many_rows');
  }, 120_000);
});
