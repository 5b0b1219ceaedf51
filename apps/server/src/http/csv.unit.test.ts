import Fastify from 'fastify';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { safeCell, sendCsv, type CsvColumn } from './csv';

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

describe('CSV answers', () => {
  it('neutralises formula cells and leaves others as they are', () => {
    for (const cell of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(safeCell(cell)).toBe(`'${cell}`);
    }
    expect(safeCell('plain, "quoted"')).toBe('plain, "quoted"');
    expect(safeCell(-3)).toBe('-3');
    expect(safeCell(null)).toBe('');
  });

  it('streams every batch behind a byte order mark and a header, with CRLF lines', async () => {
    const app = Fastify();
    app.get('/x', (_request, reply) => sendCsv(reply, 'x.csv', columns, batches(2_500, 1_000)));
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

  it('quotes cells with quotes, commas or line breaks, and keeps any other text as it is', async () => {
    const app = Fastify();
    const cells = ['say "hi"', 'a, b', 'one\r\ntwo', 'lone\nbreak', 'Zoë 北京 🙂', ''];
    const rows = cells.map((name, count) => ({ name, count }));
    app.get('/x', (_request, reply) =>
      sendCsv(
        reply,
        'x.csv',
        columns,
        (async function* () {
          yield rows;
        })(),
      ),
    );
    const answer = await app.inject({ method: 'GET', url: '/x' });
    expect(answer.body).toContain('"say ""hi""",0\r\n"a, b",1\r\n"one\r\ntwo",2\r\n');
    const parsed = parse(answer.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(parsed.map((row) => row.Name)).toEqual(cells);
    await app.close();
  });
});
