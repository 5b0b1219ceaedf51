import { PassThrough, pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, fromAcceptLanguage, type MailLocale } from '../mail/locale';

/** One column of a CSV answer: its header (in the file) and how a row gives its cell. */
export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

/**
 * Characters a spreadsheet program reads as the start of a formula, by UTF-16 code: OWASP's
 * list (`=`, `+`, `-`, `@`, and tab and carriage return, which some programs strip before
 * looking), and the full-width forms of the first four, which Apple Numbers reads as them
 * (csv-stringify's `escape_formulas` list).
 */
const FORMULA_START = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d, 0xff1d, 0xff0b, 0xff0d, 0xff20]);

/**
 * Characters after which a spreadsheet program may start a new cell: the separators it may
 * open the file with (`,`, `;`, tab) and line breaks. A program opening a `,` file with `;`
 * (German, French or Italian Excel on double-click) ignores the quotes around a field that
 * holds a `;` and splits it there, so what follows is read as a cell of its own.
 */
const CELL_BREAK = new Set([0x2c, 0x3b, 0x09, 0x0d, 0x0a]);

/** Space or a quote before a formula character still lets the program see the formula. */
const SKIPPED_BEFORE = /^[\s"]$/u;

/**
 * A cell as text a spreadsheet shows and never evaluates, whichever separator it is opened
 * with (OWASP, "CSV Injection"): an apostrophe goes before a formula character at the cell's
 * start and at the start of every piece a separator or line break begins (after any spaces or
 * quotes), so no piece a program may split the cell into starts a formula. Numbers and
 * booleans are written as they are: `-3` is a number, not a formula. Every character that
 * matters is in the Basic Multilingual Plane, so the text is walked by UTF-16 code (a surrogate
 * is neither), once: exports write millions of cells.
 */
export function safeCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  let cell = '';
  let copied = 0;
  let pieceStart = true;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (pieceStart && FORMULA_START.has(code)) {
      cell += `${value.slice(copied, i)}'`;
      copied = i;
    }
    if (CELL_BREAK.has(code)) pieceStart = true;
    else if (pieceStart && !SKIPPED_BEFORE.test(value[i]!)) pieceStart = false;
  }
  // Nothing inserted: the value itself, no copy.
  return cell === '' ? value : cell + value.slice(copied);
}

/** The separator a file is written with: the one the caller's spreadsheet program expects. */
export type CsvSeparator = ',' | ';';

/**
 * `,` for English; `;` for German, French and Italian, whose spreadsheet programs (Excel with
 * the decimal comma of those regions) split a double-clicked file on `;`.
 */
export const csvSeparatorOf = (locale: MailLocale): CsvSeparator => (locale === 'en' ? ',' : ';');

/**
 * A file's language: the caller's Accept-Language when the console speaks it (the console
 * sends its own language), else English.
 */
export const csvLanguageOf = (request: FastifyRequest): MailLocale =>
  fromAcceptLanguage(request.headers['accept-language']) ?? DEFAULT_LOCALE;

/** `users-2026-11-26.csv`: the answer's file name, of the server's day (UTC). */
export const csvFileName = (stem: string) => `${stem}-${new Date().toISOString().slice(0, 10)}.csv`;

/**
 * A cell holding any separator a program may open the file with, a quote or a line break is
 * quoted, so it stays one cell whichever of `,`, `;` or tab the program splits on (RFC 4180's
 * quoting, by csv-stringify, extended to the separators the file does not use).
 */
const QUOTED = /[",;\t\r\n]/;

/** Lines of cells, each cell made safe first, ending with CRLF (RFC 4180). */
export const csvLines = (rows: readonly (readonly string[])[], separator: CsvSeparator) =>
  stringify(rows as string[][], {
    delimiter: separator,
    record_delimiter: 'windows',
    quoted_match: QUOTED,
  });

export interface CsvFile<Row> {
  fileName: string;
  columns: readonly CsvColumn<Row>[];
  /** Rows a batch at a time (a keyset page, say). */
  batches: AsyncIterable<readonly Row[]>;
  separator: CsvSeparator;
}

/**
 * Answers a CSV file streamed from `batches`: memory holds one batch, whatever the file's
 * length, and the next batch is read only when the client has taken the last one (the
 * stream's back-pressure). UTF-8 with a byte order mark, so spreadsheet programs read accents
 * right; lines end with CRLF (RFC 4180). Each batch goes out as one piece of text: a stream of
 * one record at a time spent most of a million-row export passing records between streams.
 */
export function sendCsv<Row>(reply: FastifyReply, file: CsvFile<Row>): FastifyReply {
  const { columns, batches, separator } = file;
  async function* text() {
    yield `\uFEFF${csvLines([columns.map((column) => safeCell(column.header))], separator)}`;
    for await (const batch of batches) {
      const rows = batch.map((row) => columns.map((column) => safeCell(column.value(row))));
      if (rows.length > 0) yield csvLines(rows, separator);
    }
  }
  // A failed read ends the answer early (the client sees a cut transfer), never the process.
  const csv = pipeline(Readable.from(text()), new PassThrough(), (error) => {
    if (error) reply.log.warn({ err: error }, 'CSV export ended early');
  });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
