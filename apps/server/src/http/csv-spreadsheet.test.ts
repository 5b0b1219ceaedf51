import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../db/schema/projects';
import { recordChange } from '../modules/audit/record';
import { insertUser } from '../modules/users';
import { api, createTenant, signIn, type TenantFixture } from '../test/fixtures';
import { engine, startTestServer, TEST_PASSWORD, type TestServer } from '../test/harness';
import { HEADER, MAPPING, mapped, uploaded } from '../test/helpers/user-import';
import {
  openInSpreadsheet,
  SEPARATORS,
  sofficeBinary,
  type SeparatorName,
  type SheetCell,
} from '../test/spreadsheet';

/**
 * Every CSV file the product writes, in each of the console's languages, opened by a real
 * spreadsheet program (LibreOffice Calc) with each separator a user's program may pick: no
 * cell is ever a formula, and with the file's own separator each value is one whole cell.
 * What a name can hold is chosen by whoever signs up (OWASP, "CSV Injection"): formulas at
 * the start, and after a `;`, `,`, tab or line break, where a spreadsheet that splits the
 * line on that character starts a new cell.
 *
 * The files are written by the same code on both engines, so this runs on PGlite only; the
 * export routes themselves are tested on both (csv-export, audit, user-import).
 */
const PAYLOADS = [
  'Eve X;=2+3;',
  'x\t=1+1',
  '=HYPERLINK("http://x","y")',
  '@SUM(1,1)',
  '-1+2',
  '+1+2',
  'a,=4+4',
  'a\n=5+5',
  ' =6+6',
  'b; "=7+7"',
  '\t=8+8',
];
const LANGUAGES = ['en', 'de', 'fr', 'it'] as const;
/** What each language's spreadsheet expects on double-click: `,` in English, `;` elsewhere. */
const OWN_SEPARATOR: Record<(typeof LANGUAGES)[number], SeparatorName> = {
  en: 'comma',
  de: 'semicolon',
  fr: 'semicolon',
  it: 'semicolon',
};

/** Each file the product writes, and how many columns its header has. */
const FILES = {
  users: { columns: 7 },
  projects: { columns: 12 },
  audit: { columns: 7 },
  'import-result': { columns: 8 },
} as const;
type FileKind = keyof typeof FILES;

let server: TestServer;
let tenant: TenantFixture;
let token: string;
let importId: string;
const soffice = sofficeBinary();

async function fetchFile(kind: FileKind, language: string): Promise<string> {
  const headers = { 'accept-language': language };
  const post = (path: string) =>
    api(server, path, token, { method: 'POST', body: JSON.stringify({}), headers });
  const response =
    kind === 'users'
      ? await post('/users/export')
      : kind === 'projects'
        ? await post('/projects/export')
        : kind === 'audit'
          ? await post('/audit/export')
          : await api(server, `/user-imports/${importId}/result`, token, { headers });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.text();
}

beforeAll(async () => {
  if (engine !== 'pglite') return;
  server = await startTestServer();
  const db = server.database.db;
  tenant = await createTenant(db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD)).access_token;
  for (const [i, payload] of PAYLOADS.entries()) {
    await insertUser(db, {
      tenantId: tenant.tenantId,
      email: `probe${i}@sheet.test`,
      firstName: payload,
      lastName: 'Probe',
      roleId: tenant.memberRoleId,
    });
    // Stored as it is, as an older version may have let it in: the file must hold it safely.
    await db
      .insert(projects)
      .values({ tenantId: tenant.tenantId, name: payload, projectNumber: `P-${i}` });
    await db.transaction((tx) =>
      recordChange(tx, {
        tenantId: tenant.tenantId,
        actorId: tenant.adminId,
        entity: 'users',
        action: 'update',
        entityId: payload,
        after: { firstName: payload },
      }),
    );
  }
  const upload = stringify(
    [
      HEADER.split(','),
      ...PAYLOADS.map((payload, i) => [payload, 'Probe', `import${i}@sheet.test`, 'Member', '']),
    ],
    { record_delimiter: 'windows' },
  );
  const job = await uploaded(server, token, upload);
  await mapped(server, token, job.id, false, MAPPING);
  importId = job.id;
}, 60_000);
afterAll(() => server?.close());

/** A cell shows a value when it reads the same but for the apostrophes that neutralise it. */
const shown = (text: string) => text.replaceAll("'", '').trim();

describe.runIf(engine === 'pglite' && (soffice !== undefined || process.env.CI === 'true'))(
  'the CSV files in a spreadsheet program',
  () => {
    let files: { path: string; kind: FileKind; language: (typeof LANGUAGES)[number] }[];
    const sheets = new Map<SeparatorName, Map<string, SheetCell[][]>>();

    beforeAll(async () => {
      // Missing under CI is a failure, not a skip: .ci/run installs LibreOffice.
      if (!soffice) throw new Error('LibreOffice (soffice) is not installed: .ci/run installs it');
      const dir = mkdtempSync(join(tmpdir(), 'tc-csv-files-'));
      files = [];
      for (const kind of Object.keys(FILES) as FileKind[]) {
        for (const language of LANGUAGES) {
          const path = join(dir, `${kind}-${language}.csv`);
          writeFileSync(path, await fetchFile(kind, language));
          files.push({ path, kind, language });
        }
      }
      // One start of the program per separator, every file in it.
      for (const separator of Object.keys(SEPARATORS) as SeparatorName[]) {
        sheets.set(
          separator,
          await openInSpreadsheet(
            files.map((file) => file.path),
            separator,
          ),
        );
      }
    }, 180_000);

    it('evaluates no cell of any file, whichever separator it is opened with', () => {
      const formulas: string[] = [];
      for (const [separator, bySeparator] of sheets) {
        for (const { path, kind, language } of files) {
          for (const row of bySeparator.get(path)!) {
            for (const cell of row) {
              if (cell.formula) {
                formulas.push(`${kind} (${language}) as ${separator}: ${cell.formula}`);
              }
            }
          }
        }
      }
      expect(formulas).toEqual([]);
    });

    it("shows each value whole in one cell with the separator of the file's language", () => {
      for (const { path, kind, language } of files) {
        const sheet = sheets.get(OWN_SEPARATOR[language])!.get(path)!;
        expect(sheet[0], `${kind} (${language}) header`).toHaveLength(FILES[kind].columns);
        const texts = new Set(sheet.flat().map((cell) => shown(cell.text)));
        const missing = PAYLOADS.filter((payload) => !texts.has(shown(payload)));
        expect(missing, `${kind} (${language})`).toEqual([]);
      }
    });
  },
);
