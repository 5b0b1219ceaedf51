import { PassThrough, pipeline, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** One column of a CSV answer: its header (in the file) and how a row gives its cell. */
export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

/**
 * Characters a spreadsheet program reads as the start of a formula (OWASP's list: `=`, `+`, `-`,
 * `@`, and tab and carriage return, which some programs strip before looking).
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * A cell as text a spreadsheet shows and never evaluates: a leading formula character gets an
 * apostrophe before it, which the programs hide; everything else is written as it is.
 */
export function safeCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (typeof value === 'string' && text !== '' && FORMULA_START.has(text[0]!)) return `'${text}`;
  return text;
}

/** `users-2026-11-26.csv`: the answer's file name, of the server's day (UTC). */
export const csvFileName = (stem: string) => `${stem}-${new Date().toISOString().slice(0, 10)}.csv`;

/** Fields that hold a quote, a comma or a line break are quoted, quotes doubled (RFC 4180). */
const NEEDS_QUOTES = /[",\r\n]/;
const field = (text: string) =>
  NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
const line = (cells: readonly string[]) => `${cells.map(field).join(',')}\r\n`;

/**
 * Answers a CSV file streamed from `batches`, which yields rows a batch at a time (a keyset
 * page, say): memory holds one batch, whatever the file's length, and the next batch is read
 * only when the client has taken the last one (the stream's back-pressure). UTF-8 with a byte
 * order mark, so spreadsheet programs read accents right; lines end with CRLF (RFC 4180).
 * Each batch goes out as one piece of text: a stream of one record at a time spent most of
 * a million-row export passing records between streams.
 */
export function sendCsv<Row>(
  reply: FastifyReply,
  fileName: string,
  columns: readonly CsvColumn<Row>[],
  batches: AsyncIterable<readonly Row[]>,
): FastifyReply {
  async function* text() {
    yield `\uFEFF${line(columns.map((column) => safeCell(column.header)))}`;
    for await (const batch of batches) {
      let chunk = '';
      for (const row of batch) chunk += line(columns.map((column) => safeCell(column.value(row))));
      if (chunk) yield chunk;
    }
  }
  // A failed read ends the answer early (the client sees a cut transfer), never the process.
  const csv = pipeline(Readable.from(text()), new PassThrough(), (error) => {
    if (error) reply.log.warn({ err: error }, 'CSV export ended early');
  });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
