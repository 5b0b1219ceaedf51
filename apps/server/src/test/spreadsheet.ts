import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A real spreadsheet program for the tests of the files the product writes: LibreOffice Calc
 * (Debian's libreoffice-calc-nogui, which .ci/run installs) opens CSV files the way a user's
 * double-click would, formulas evaluated, and saves them as flat OpenDocument, which the test
 * reads back cell by cell.
 */

/** The separators a spreadsheet may open a file with: `,` (en), `;` (de, fr, it) and tab. */
export const SEPARATORS = { comma: ',', semicolon: ';', tab: '\t' } as const;
export type SeparatorName = keyof typeof SEPARATORS;

/** The path of `soffice`, or undefined when LibreOffice is not installed. */
export function sofficeBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/usr/lib/libreoffice/program'];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, 'soffice'), constants.X_OK);
      return join(dir, 'soffice');
    } catch {
      // Not there; try the next.
    }
  }
  return undefined;
}

/** The private LibreOffice profile of this test file's runs, made by its first run. */
let profile: string | undefined;

/** One cell as the spreadsheet holds it: the text it shows, and its formula when it has one. */
export interface SheetCell {
  text: string;
  formula?: string;
}

/**
 * Opens every file of `files` in one start of LibreOffice with `separator` and `"` as the text
 * delimiter, and answers each file's first sheet. The import options are the strictest reading
 * (LibreOffice's CSV filter options, tokens 7, 8, 11 and 13): quoted fields are read like any
 * other (not forced to text), special numbers detected, spaces around fields removed, formulas
 * evaluated. A private profile keeps runs apart from each other and from a user's own.
 */
export async function openInSpreadsheet(
  files: readonly string[],
  separator: SeparatorName,
): Promise<Map<string, SheetCell[][]>> {
  const soffice = sofficeBinary();
  if (!soffice) throw new Error('LibreOffice (soffice) is not installed: .ci/run installs it');
  const work = mkdtempSync(join(tmpdir(), 'tc-spreadsheet-'));
  // One profile for the test file's runs: LibreOffice spends seconds creating one.
  profile ??= join(mkdtempSync(join(tmpdir(), 'tc-spreadsheet-profile-')), 'profile');
  const code = SEPARATORS[separator].charCodeAt(0);
  await promisify(execFile)(
    soffice,
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      `--infilter=CSV:${code},34,76,1,,0,false,true,false,false,true,-1,true`,
      '--convert-to',
      'fods',
      '--outdir',
      work,
      ...files,
    ],
    { timeout: 120_000 },
  );
  const sheets = new Map<string, SheetCell[][]>();
  for (const file of files) {
    const converted = join(work, `${basename(file).replace(/\.[^.]*$/, '')}.fods`);
    sheets.set(file, readFlatOds(readFileSync(converted, 'utf8')));
  }
  return sheets;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text: string) =>
  text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) {
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    }
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name] ?? whole;
  });

/** A paragraph's text: LibreOffice writes runs of spaces, tabs and breaks as elements. */
const paragraphText = (xml: string) =>
  decode(
    xml
      .replace(/<text:s\/>/g, ' ')
      .replace(/<text:s text:c="(\d+)"\/>/g, (_, count: string) => ' '.repeat(Number(count)))
      .replace(/<text:tab\/>/g, '\t')
      .replace(/<text:line-break\/>/g, '\n')
      .replace(/<[^>]+>/g, ''),
  );

const attribute = (attributes: string, name: string) =>
  new RegExp(`${name}="([^"]*)"`).exec(attributes)?.[1];

/** The first sheet of a flat OpenDocument spreadsheet, row by row (trailing empties dropped). */
export function readFlatOds(xml: string): SheetCell[][] {
  const table = /<table:table\b[\s\S]*?<\/table:table>/.exec(xml)?.[0] ?? '';
  const rows: SheetCell[][] = [];
  for (const row of table.matchAll(
    /<table:table-row\b[^>]*?(?:\/>|>([\s\S]*?)<\/table:table-row>)/g,
  )) {
    const cells: SheetCell[] = [];
    const cellPattern = /<table:table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g;
    for (const [, attributes = '', content = ''] of (row[1] ?? '').matchAll(cellPattern)) {
      const paragraphs = [...content.matchAll(/<text:p>([\s\S]*?)<\/text:p>/g)];
      const text = paragraphs.map((paragraph) => paragraphText(paragraph[1] ?? '')).join('\n');
      const formula = attribute(attributes, 'table:formula');
      const repeated = Math.min(
        Number(attribute(attributes, 'table:number-columns-repeated') ?? 1),
        64,
      );
      for (let i = 0; i < repeated; i += 1) {
        cells.push(formula === undefined ? { text } : { text, formula: decode(formula) });
      }
    }
    while (cells.length > 0 && cells.at(-1)!.text === '' && !cells.at(-1)!.formula) cells.pop();
    rows.push(cells);
  }
  while (rows.length > 0 && rows.at(-1)!.length === 0) rows.pop();
  return rows;
}
