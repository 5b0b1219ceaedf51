import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { USER_IMPORT_LIMITS } from '@tc/contract/user-import';
import { AppError, badRequest } from '../../http/problem';

const { maxBytes, maxColumns, maxRecordChars } = USER_IMPORT_LIMITS;

const tooLarge = () =>
  new AppError(413, 'user_import.file_too_large', { maximum: maxBytes / (1024 * 1024) });

/**
 * The body as text, chunk by chunk: bytes are counted against the file limit (the route's body
 * limit does not apply to a streamed body) and decoded as strict UTF-8, so a Latin-1 file or
 * one mixing encodings is refused instead of stored with replacement characters. A leading
 * byte order mark is dropped by the decoder.
 */
async function* decodedText(body: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  const decode = (chunk?: Buffer) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw badRequest('user_import.not_utf8');
    }
  };
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > maxBytes) throw tooLarge();
    const text = decode(chunk);
    // PostgreSQL cannot store NUL in text, and no spreadsheet writes it: a binary file.
    if (text.includes('\0')) throw badRequest('user_import.not_csv', { line: 1 });
    if (text) yield text;
  }
  const rest = decode();
  if (rest) yield rest;
}

/** Comma, semicolon (what spreadsheets write in German, French or Italian) or tab. */
function delimiterOf(firstLine: string): string {
  const counts = [',', ';', '\t'].map((mark) => [mark, firstLine.split(mark).length] as const);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] > 1 ? best[0] : ',';
}

/**
 * Counts the cells of each record as the text goes by, so a line of a million empty cells is
 * refused at its 51st: csv-parse's record size limit counts characters, and empty cells have
 * none. A quote toggles quoting (an escaped quote toggles twice), so delimiters and line breaks
 * inside quotes are not counted. One pass over the characters, nothing kept.
 */
function columnGuard(delimiter: string) {
  const mark = delimiter.charCodeAt(0);
  let quoted = false;
  let cells = 1;
  let line = 1;
  let afterCr = false;
  return (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const lf = code === 10;
      // A line ends with LF, CRLF or a lone CR (old Mac files): CRLF counts once.
      if (code === 34) quoted = !quoted;
      else if (quoted) continue;
      else if (code === 13 || (lf && !afterCr)) {
        cells = 1;
        line += 1;
      } else if (code === mark && ++cells > maxColumns) {
        throw badRequest('user_import.too_many_columns', { maximum: maxColumns, line });
      }
      afterCr = code === 13 && !quoted;
    }
  };
}

/** csv-parse's own refusals, as the problem the uploader can act on. */
function parseProblem(error: unknown, line: number): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return new AppError(413, 'user_import.line_too_long', { line, maximum: maxRecordChars });
  }
  return badRequest('user_import.not_csv', { line });
}

/**
 * The records of an uploaded CSV file, one array of cells each, read as they arrive: memory
 * holds one chunk and one record. A record longer than 64 K characters, or with more than 50
 * cells, is refused while it is being read (the column check runs per cell, so a line of a
 * million empty cells stops at the 51st).
 */
export async function* readCsvRecords(body: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  const text = decodedText(body)[Symbol.asyncIterator]();
  let head = '';
  while (!head.includes('\n') && head.length <= maxRecordChars) {
    const next = await text.next();
    if (next.done) break;
    head += next.value;
  }
  const delimiter = delimiterOf(head.slice(0, Math.min(head.indexOf('\n') >>> 0, maxRecordChars)));

  let sourceError: unknown;
  const guard = columnGuard(delimiter);
  async function* source() {
    try {
      guard(head);
      if (head) yield head;
      for (;;) {
        const next = await text.next();
        if (next.done) return;
        guard(next.value);
        yield next.value;
      }
    } catch (error) {
      sourceError = error;
      throw error;
    }
  }
  let line = 1;
  const parser = parse({
    delimiter,
    max_record_size: maxRecordChars,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  pipeline(Readable.from(source()), parser, () => {
    // Errors surface through the iteration below.
  });
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      yield record;
      line += 1;
    }
  } catch (error) {
    throw parseProblem(sourceError ?? (error as { cause?: unknown }).cause ?? error, line);
  }
}
