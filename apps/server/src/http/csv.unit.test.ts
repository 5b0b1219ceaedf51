import Fastify from 'fastify';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvLines, csvSeparatorOf, safeCell, sendCsv, type CsvColumn } from './csv';

interface Row {
  name: string;
  count: number;
}
const columns: CsvColumn<Row>[] = [
  { header: 'Name', value: (row) => row.name },
  { header: 'Count', value: (row) => row.count },
];

async function* batches(count: number, size: number) {
  for (let start = 0; start < count; start += size) {
    yield Array.from({ length: Math.min(size, count - start) }, (_, i) => ({
      name: `row ${start + i}`,
      count: start + i,
    }));
  }
}

async function* once<T>(rows: T[]) {
  yield rows;
}

/** The separators a spreadsheet program may open a file with, whatever it was written with. */
const OPENED_WITH = [',', ';', '\t'] as const;
const FILE_SEPARATORS = [',', ';'] as const;
/** What a formula starts with, after any spaces or quotes (OWASP, and full-width forms). */
const FORMULA_CHARS = new Set(['=', '+', '-', '@', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/** Any text, with the characters that matter here made frequent. */
const cellText = fc.string({
  unit: fc.oneof(
    { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 3 },
    { arbitrary: fc.constantFrom(...'=+-@,;\t\r\n" \'\uFF1D\u00A0'), weight: 2 },
  ),
  maxLength: 30,
});

describe('a CSV cell', () => {
  it('neutralises formula cells and leaves others as they are', () => {
    for (const cell of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx', '\uFF1D1+1']) {
      expect(safeCell(cell)).toBe(`'${cell}`);
    }
    expect(safeCell('plain, "quoted"')).toBe('plain, "quoted"');
    expect(safeCell(-3)).toBe('-3');
    expect(safeCell(true)).toBe('true');
    expect(safeCell(null)).toBe('');
  });

  it('neutralises a formula that starts after a separator, a line break, spaces or a quote', () => {
    expect(safeCell('Eve X;=2+3;')).toBe("Eve X;'=2+3;");
    expect(safeCell('x\t=1+1')).toBe("x\t'=1+1");
    expect(safeCell('a, @SUM(1,1)')).toBe("a, '@SUM(1,1)");
    expect(safeCell('a\r\n-1+2')).toBe("a\r\n'-1+2");
    expect(safeCell('  =1+1')).toBe("  '=1+1");
    expect(safeCell('b; "=7+7"')).toBe(`b; "'=7+7"`);
    expect(safeCell('1-2=3, a@b.example')).toBe('1-2=3, a@b.example');
  });

  it('differs from the value only by apostrophes, for any text', () => {
    fc.assert(
      fc.property(cellText, (text) => {
        expect(safeCell(text).replaceAll("'", '')).toBe(text.replaceAll("'", ''));
      }),
    );
  });

  it('starts no piece with a formula, wherever a program that ignores quotes splits the line', () => {
    fc.assert(
      fc.property(fc.array(cellText, { minLength: 1, maxLength: 4 }), (texts) => {
        for (const separator of FILE_SEPARATORS) {
          const line = csvLines([texts.map(safeCell)], separator);
          for (const piece of line.split(/[,;\t\r\n]/)) {
            const start = [...piece.replace(/^[\s"]+/u, '')][0];
            expect(start === undefined || !FORMULA_CHARS.has(start), line).toBe(true);
          }
        }
      }),
    );
  });

  it('stays one whole field whichever separator the file is read with', () => {
    fc.assert(
      fc.property(cellText, (text) => {
        const cell = safeCell(text);
        for (const separator of FILE_SEPARATORS) {
          for (const delimiter of OPENED_WITH) {
            const records: string[][] = parse(csvLines([[cell]], separator), { delimiter });
            expect(records).toEqual([[cell]]);
          }
        }
      }),
    );
  });
});

describe('CSV answers', () => {
  it('writes `,` for English and `;` for German, French and Italian', () => {
    expect(csvSeparatorOf('en')).toBe(',');
    expect(['de', 'fr', 'it'].map((locale) => csvSeparatorOf(locale as 'de'))).toEqual([
      ';',
      ';',
      ';',
    ]);
  });

  it('streams every batch behind a byte order mark and a header, with CRLF lines', async () => {
    const app = Fastify();
    app.get('/x', (_request, reply) =>
      sendCsv(reply, {
        fileName: 'x.csv',
        columns,
        batches: batches(2_500, 1_000),
        separator: ',',
      }),
    );
    const answer = await app.inject({ method: 'GET', url: '/x' });
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="x.csv"');
    expect(answer.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(answer.body.slice(1, 20)).toBe('Name,Count\r\nrow 0,0');
    const rows = parse(answer.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2_500);
    expect(rows[2_499]).toEqual({ Name: 'row 2499', Count: '2499' });
    await app.close();
  });

  it('quotes cells holding a separator, a quote or a line break, with either separator', async () => {
    const cells = [
      'say "hi"',
      'a, b',
      'a; b',
      'a\tb',
      'one\r\ntwo',
      'lone\nbreak',
      'Zoë 北京 🙂',
      '',
    ];
    const rows = cells.map((name, count) => ({ name, count }));
    for (const separator of FILE_SEPARATORS) {
      const app = Fastify();
      app.get('/x', (_request, reply) =>
        sendCsv(reply, { fileName: 'x.csv', columns, batches: once(rows), separator }),
      );
      const answer = await app.inject({ method: 'GET', url: '/x' });
      expect(answer.body).toContain(
        `"say ""hi"""${separator}0\r\n"a, b"${separator}1\r\n"a; b"${separator}2\r\n"a\tb"${separator}3\r\n"one\r\ntwo"${separator}4\r\n`,
      );
      const parsed = parse(answer.body, {
        bom: true,
        columns: true,
        delimiter: separator,
      }) as Record<string, string>[];
      expect(parsed.map((row) => row.Name)).toEqual(cells);
      await app.close();
    }
  });
});
