import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A regular expression written in a source file, with where it is. */
export interface FoundRegex {
  file: string;
  line: number;
  source: string;
  flags: string;
}

/** Everything in the sources that builds a regular expression. */
export interface RegexInventory {
  /** Literals, and `RegExp(…)` of constant text: checkable as they stand. */
  literals: FoundRegex[];
  /** `RegExp(…)` of computed text: the test must check the built object itself. */
  computed: { file: string; line: number; text: string }[];
  /** Names of zod string formats called (`z.email()`, `z.iso.datetime()`, `.uuid()`, …). */
  zodFormats: Set<string>;
  /** Format calls given options that may change zod's pattern (anything but the message). */
  zodFormatOptions: { file: string; line: number; text: string }[];
}

/** Options of a zod format that only word or stop its error, never change its pattern. */
const MESSAGE_OPTIONS = new Set(['message', 'error', 'abort']);

/** Zod's string formats; each one validates with a regular expression of zod's or a parser. */
const ZOD_FORMATS = new Set([
  'email',
  'uuid',
  'uuidv4',
  'uuidv6',
  'uuidv7',
  'guid',
  'url',
  'httpUrl',
  'emoji',
  'nanoid',
  'cuid',
  'cuid2',
  'ulid',
  'xid',
  'ksuid',
  'datetime',
  'date',
  'time',
  'duration',
  'ipv4',
  'ipv6',
  'mac',
  'cidrv4',
  'cidrv6',
  'base64',
  'base64url',
  'e164',
  'jwt',
  'hostname',
  'hex',
  'hash',
]);

/** The production sources under `dir`: tests and their helpers never see a request. */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test' && entry.name !== 'node_modules') files.push(...sourceFiles(path));
    } else if (/\.(ts|js|cjs|mjs)$/.test(entry.name) && !/\.test\.ts$|\.d\.ts$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files;
}

function constantText(node: ts.Expression | undefined): string | undefined {
  if (node === undefined) return '';
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
    ? node.text
    : undefined;
}

/** Reads each file's syntax tree: the regexes inside are found however they are written. */
export function inventory(files: string[], root: string): RegexInventory {
  const result: RegexInventory = {
    literals: [],
    computed: [],
    zodFormats: new Set(),
    zodFormatOptions: [],
  };
  for (const path of files) {
    const file = relative(root, path);
    const tree = ts.createSourceFile(
      path,
      readFileSync(path, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const lineOf = (node: ts.Node) => tree.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText();
        const end = text.lastIndexOf('/');
        result.literals.push({
          file,
          line: lineOf(node),
          source: text.slice(1, end),
          flags: text.slice(end + 1),
        });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        node.expression.getText() === 'RegExp'
      ) {
        const [sourceArg, flagsArg] = node.arguments ?? [];
        const source = constantText(sourceArg);
        const flags = constantText(flagsArg);
        if (sourceArg && source !== undefined && flags !== undefined) {
          result.literals.push({ file, line: lineOf(node), source, flags });
        } else {
          result.computed.push({ file, line: lineOf(node), text: node.getText() });
        }
      } else if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ZOD_FORMATS.has(node.expression.name.text)
      ) {
        result.zodFormats.add(node.expression.name.text);
        const options = node.arguments.find(ts.isObjectLiteralExpression);
        const names = options?.properties.map((p) => p.name?.getText() ?? '') ?? [];
        if (names.some((name) => !MESSAGE_OPTIONS.has(name))) {
          result.zodFormatOptions.push({ file, line: lineOf(node), text: node.getText() });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return result;
}
