import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, type Diagnostics } from 'recheck';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inventory, sourceFiles } from './regex-inventory';

/*
 * Every regular expression of the server and of the contract, found in their syntax trees, is
 * proven linear by recheck (its pure-JS backend, offline) and run against 64 KB inputs built to
 * make backtracking regexes stall. Those applied to request input, and why each is linear:
 *
 * - `^Bearer\s+(\S+)$` (Authorization; auth-guard, events): \s and \S are disjoint.
 * - UUIDs (Tenant-ID header, file ids, token subjects), `^\d{1,15}$` (Last-Event-ID), tenant
 *   names, amounts, `^[\w.$-]{1,128}$`: fixed or bounded length, anchored.
 * - Host: `:\d+$`, `\.$`: the digits after a colon belong to that colon only.
 * - Accept-Language pieces: `[-_]`, `^\s*q=([\d.]+)\s*$`: anchored, each class disjoint from
 *   what follows it.
 * - `\s+`, `(\s+)`, `[._+-]+` splitting names, e-mail local parts and logged messages; one-
 *   character classes (`[\\%_]` search text, `[\p{L}\p{N}]` whether a users search has a letter
 *   or digit, control characters, password symbols, `[&<>"']` escaped on the OpenID provider's
 *   pages): a run is matched once, from its first character, and nothing follows it to
 *   backtrack into.
 * - Mail text (names in it): `https?:\/\/[^\s<>"]+` ends where the run ends.
 * - Google ID token claims: the e-mail shape excludes `@` on both sides of the `@`.
 * - Names greeted in mails (account-mail `PLAIN_NAME`): recheck can only fuzz it (lookahead), so
 *   it is listed in ARGUED below with the reason it is linear. Tenant domains are checked label
 *   by label (`isTenantDomain`), each label by an anchored pattern without lookahead.
 * - zod's `.email()`: dot-separated groups end at a dot, the domain's labels too; `.uuid()`,
 *   `z.iso.date()`, `z.iso.datetime()`: bounded. `z.url()` parses with URL (configuration only).
 * - The console's libraries: `\*` on Accept-Encoding and `^ *bytes=` on Range; the encoding is
 *   then chosen by @fastify/accept-negotiator's hand-written parser, not by a regex.
 */

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const found = inventory(
  [
    ...sourceFiles(join(ROOT, 'apps/server/src')),
    ...sourceFiles(join(ROOT, 'packages/contract/src')),
    // The static console's request path.
    join(ROOT, 'node_modules/@fastify/static/index.js'),
    ...sourceFiles(join(ROOT, 'node_modules/@fastify/send/lib')),
  ],
  ROOT,
);

/** Regexes built from computed text, checked as the objects their modules export. */
const COMPUTED: Record<string, RegExp[]> = {};

/** Super-linear, but only ever applied to configuration; keyed by file and pattern. */
const NOT_REQUEST_INPUT: Record<string, string> = {
  'apps/server/src/config.ts /\\/+$/': 'PUBLIC_URL, from the environment',
  'apps/server/src/modules/assistant/provider.ts /\\/+$/':
    'the model API URL, from the environment',
  'apps/server/src/mail/links.ts /\\/+$/': 'PUBLIC_URL with a validated tenant domain',
  'apps/server/src/db/database.ts /\\/\\/([^:/@]+):[^@]*@/': 'DATABASE_URL, from the environment',
};

/** Linear by argument where recheck can only fuzz (lookahead): the argument, kept with them. */
const ARGUED: Record<string, string> = {
  "/^(?:[\\p{L}\\p{M} '’-]|\\.(?= |$))+$/u":
    'the alternatives are disjoint (no dot in the class) and the lookahead reads one character',
};

/**
 * The pattern behind a zod string format with its default options, the only ones the sources
 * use (the inventory test fails on any other).
 */
const patternOf = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { def: { pattern?: RegExp } } })._zod.def.pattern;
function zodFormatPatterns(format: string): RegExp[] {
  const iso = (z.iso as unknown as Record<string, unknown>)[format];
  const top = (z as unknown as Record<string, unknown>)[format];
  const factory = (typeof iso === 'function' ? iso : top) as () => z.ZodType;
  const pattern = patternOf(factory());
  return pattern ? [pattern] : [];
}
/**
 * Zod formats called with options that change their pattern, by file: each variant's own
 * pattern is checked with the rest. A new variant fails the inventory test until it is here.
 */
const FORMAT_VARIANTS: Record<string, string[]> = {
  // The audit list's time bounds take an offset (`+01:00`) as well as `Z`.
  'packages/contract/src/audit.ts': ['datetime({ offset: true'],
};
const VARIANT_PATTERNS: Candidate[] = [
  { where: 'zod datetime({ offset: true })', regex: patternOf(z.iso.datetime({ offset: true }))! },
];
/** zod formats validated by a parser, without a regex of zod's. */
const PARSED_BY_ZOD = new Set(['url', 'httpUrl']);

interface Candidate {
  where: string;
  regex: RegExp;
}

const key = (regex: RegExp) => String(regex);
function candidates(): Candidate[] {
  const all: Candidate[] = found.literals
    .filter((l) => NOT_REQUEST_INPUT[`${l.file} /${l.source}/${l.flags}`] === undefined)
    .map((l) => ({ where: `${l.file}:${l.line}`, regex: new RegExp(l.source, l.flags) }));
  for (const [file, regexes] of Object.entries(COMPUTED)) {
    all.push(...regexes.map((regex) => ({ where: file, regex })));
  }
  for (const format of found.zodFormats) {
    all.push(...zodFormatPatterns(format).map((regex) => ({ where: `zod ${format}`, regex })));
  }
  all.push(...VARIANT_PATTERNS);
  const unique = new Map(all.map((c) => [key(c.regex), c]));
  return [...unique.values()];
}

// recheck's native build (the recheck-linux-x64 package npm installs beside it; the same
// analysis as its JavaScript build, many times faster), else its JavaScript build. The pure
// JavaScript build ran out of its time on a fully busy machine and reported "unknown".
process.env.RECHECK_BACKEND = 'auto';
// The analysis's own budget: generous, so that a busy machine still finishes it.
const analyse = (regex: RegExp): Promise<Diagnostics> =>
  check(regex.source, regex.flags, { timeout: 60_000, maxRepeatCount: 200 });

const LIMIT_MS = 50;
const SIZE = 64 * 1024;
const UNITS = ['a', 'Z', '0', '_', '-', '.', ' ', '\t', '/', ':', '@', "'", ',', ';', '=', '"'];
UNITS.push('%', 'é', '\u0301', '\r\n', 'a.', 'a-', 'a ', '. ', '0.', '//a:', 'a@', 'q=1 ');
const PREFIXES = ['', 'Bearer ', 'http://', 'a@', 'br'];
const SUFFIXES = ['\u0000', '\n'];

/**
 * Every match over the whole input, as split and replace find them, in milliseconds of this
 * process's CPU time: on a machine busy with other work the wall clock also counts the time
 * the process waited for a core (a 64 KB input failed the 50 ms beside a CPU hog), while the
 * CPU time of one match is what a backtracking regex multiplies.
 */
function timeAll(regex: RegExp, input: string): number {
  const everywhere = new RegExp(
    regex.source,
    regex.flags.includes('g') ? regex.flags : `${regex.flags}g`,
  );
  const started = process.cpuUsage();
  input.replace(everywhere, '');
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/**
 * The slowest pumped input, by the fastest of three runs so a busy machine cannot fail it; stops
 * at the first one over the limit.
 */
function slowestInput(regex: RegExp, tries = 3): { input: string; ms: number } {
  let slowest = { input: '', ms: 0 };
  for (const prefix of PREFIXES) {
    for (const unit of UNITS) {
      for (const suffix of SUFFIXES) {
        const input = prefix + unit.repeat(Math.ceil(SIZE / unit.length)) + suffix;
        let ms = timeAll(regex, input);
        for (let i = 1; i < tries && ms > LIMIT_MS; i += 1)
          ms = Math.min(ms, timeAll(regex, input));
        if (ms > slowest.ms) slowest = { input: JSON.stringify(input.slice(0, 24)), ms };
        if (ms > LIMIT_MS) return slowest;
      }
    }
  }
  return slowest;
}

/** The Accept-Encoding regex of the hand-written static server that a probe stalled. */
const STALLED_STATIC_SERVER = /(^|,)\s*br\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/;

describe('regular expressions applied to request input', () => {
  it('are all found: literals, computed ones, zod formats and the static libraries', () => {
    const where = found.literals.map((l) => `${l.file} /${l.source}/${l.flags}`);
    expect(where).toContain('apps/server/src/http/auth-guard.ts /^Bearer\\s+(\\S+)$/i');
    expect(where).toContain('node_modules/@fastify/static/index.js /\\*/gu');
    expect(where).toContain('node_modules/@fastify/send/lib/send.js /^ *bytes=/');
    expect(found.literals.length).toBeGreaterThan(40);
    for (const computed of found.computed) {
      expect(COMPUTED[computed.file], `${computed.file}:${computed.line}`).toBeDefined();
    }
    expect(found.zodFormats).toContain('email');
    // Options such as `{ offset: true }` change zod's pattern: each variant is checked too.
    for (const call of found.zodFormatOptions) {
      const known = FORMAT_VARIANTS[call.file]?.some((variant) => call.text.includes(variant));
      expect(known, `${call.file}:${call.line} ${call.text}`).toBe(true);
    }
    for (const format of found.zodFormats) {
      const known = PARSED_BY_ZOD.has(format) || zodFormatPatterns(format).length > 0;
      expect(known, `zod format ${format}`).toBe(true);
    }
    for (const exempt of Object.keys(NOT_REQUEST_INPUT)) expect(where).toContain(exempt);
  });

  it('are linear according to recheck, or argued linear where it can only fuzz', async () => {
    const problems: string[] = [];
    for (const { where, regex } of candidates()) {
      const result = await analyse(regex);
      if (result.status !== 'safe') {
        const why =
          result.status === 'vulnerable'
            ? `${result.complexity.summary}, e.g. ${result.attack.pattern}`
            : result.error.kind;
        problems.push(`${where} ${key(regex)}: ${result.status} (${why})`);
      } else if (result.checker === 'fuzz' && ARGUED[key(regex)] === undefined) {
        problems.push(`${where} ${key(regex)}: only fuzzed; prove it linear and add it to ARGUED`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('answer 64 KB adversarial inputs in well under 50 ms', () => {
    const slow = candidates()
      .map(({ where, regex }) => ({ where, regex: key(regex), ...slowestInput(regex) }))
      .filter((result) => result.ms > LIMIT_MS);
    expect(slow).toEqual([]);
  }, 120_000);

  it('would catch the Accept-Encoding regex that stalled the static server', async () => {
    const result = await analyse(STALLED_STATIC_SERVER);
    expect(result.status).toBe('vulnerable');
    expect(slowestInput(STALLED_STATIC_SERVER, 1).ms).toBeGreaterThan(LIMIT_MS);
  }, 120_000);
});
