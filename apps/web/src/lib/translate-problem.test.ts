import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInstance, type i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../locales/validation/de.json';
import en from '../locales/validation/en.json';
import fr from '../locales/validation/fr.json';
import it_ from '../locales/validation/it.json';
import { problemTemplates, translateProblem } from './translate-problem';

const locales: Record<string, Record<string, string>> = { en, de, fr, it: it_ };

// A string, not a URL object: under jsdom, `URL` is jsdom's class, which node's fileURLToPath rejects.
const CONTRACT = join(dirname(fileURLToPath(import.meta.url)), '../../../../packages/contract/src');

/** Zod calls whose last argument is the message: `.min(1, '…')`, `z.email('…')`, … */
const CHECKS = new Set(['min', 'max', 'length', 'regex', 'refine', 'email', 'uuid', 'enum']);

/** The name of the call whose argument list is open at the end of `before`, e.g. `min`. */
function openCall(before: string): string | undefined {
  let depth = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    const char = before[i];
    if (char === ')') depth++;
    else if (char === '(' && depth-- === 0) return /(\w+)\s*$/.exec(before.slice(0, i))?.[1];
  }
  return undefined;
}

/**
 * Templates whose values are helper arguments, with the concrete texts each gives in the
 * contract. (Templates over constants, `${MAX_CHAT_MESSAGES}`, are filled in directly.) A new
 * template fails the test until it is listed here and translated.
 */
const TEMPLATES: Record<string, (source: string) => string[]> = {
  'Use at most ${max} characters.': (source) =>
    [...source.matchAll(/optionalText\((\d+)\)/g)].map((m) => `Use at most ${m[1]} characters.`),
  'Enter a ${label}.': (source) =>
    [...source.matchAll(/nameSchema\('([^']+)'\)/g)].map((m) => `Enter a ${m[1]}.`),
  'The ${label} can be at most 100 characters long.': (source) =>
    [...source.matchAll(/nameSchema\('([^']+)'\)/g)].map(
      (m) => `The ${m[1]} can be at most 100 characters long.`,
    ),
  'Not a valid ${what} id.': (source) =>
    [...source.matchAll(/createdId\('([^']+)'\)/g)].map((m) => `Not a valid ${m[1]} id.`),
};

/** `${NAME}` replaced by the file's `const NAME = 4000;` or `const NAME = '…';`, if all are. */
function fillConstants(template: string, source: string): string | undefined {
  let complete = true;
  const text = template.replace(/\$\{([A-Z][A-Z_]*)\}/g, (_, name: string) => {
    const value = new RegExp(`\\bconst ${name} = (?:'([^'\\n]*)'|([\\d_]+));`).exec(source);
    if (!value) complete = false;
    return value?.[1] ?? value?.[2]?.replaceAll('_', '') ?? '';
  });
  return complete && !text.includes('${') ? text : undefined;
}

/**
 * The messages a contract file gives zod: string literals passed as `error:`/`message:` or as
 * the last argument of a check, sentence constants (`const NEGATIVE_MESSAGE = '…'`), and the
 * expansions of the templates above. Pragmatic, not a parser: enough for the contract's style.
 */
function contractMessages(file: string): { messages: string[]; unknownTemplates: string[] } {
  // Comments quote messages and code in backticks; only code counts.
  const source = file.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const messages: string[] = [];
  for (const match of source.matchAll(/'((?:[^'\\\n]|\\.)*)'/g)) {
    const before = source.slice(0, match.index);
    const after = source.slice(match.index + match[0].length);
    const text = match[1]!.replace(/\\(.)/g, '$1');
    const named = /\b(?:error|message):\s*$/.test(before);
    const lastArgument = /^\s*,?\s*\)/.test(after) && CHECKS.has(openCall(before) ?? '');
    if (named || lastArgument) messages.push(text);
  }
  for (const match of source.matchAll(/\bconst [A-Z][A-Z_]* = '([A-Z][^'\n]* [^'\n]*\.)'/g)) {
    messages.push(match[1]!);
  }
  const unknownTemplates: string[] = [];
  for (const match of source.matchAll(/`([^`]*\$\{[^`]*\.)`/g)) {
    const filled = fillConstants(match[1]!, source);
    const expand = TEMPLATES[match[1]!];
    if (filled) messages.push(filled);
    else if (expand) messages.push(...expand(source));
    else unknownTemplates.push(match[1]!);
  }
  return { messages, unknownTemplates };
}

describe('translateProblem', () => {
  let i18n: I18n;

  beforeAll(async () => {
    i18n = createInstance();
    await i18n.init({
      lng: 'de',
      fallbackLng: 'en',
      ns: ['translation', 'validation'],
      resources: Object.fromEntries(
        Object.entries(locales).map(([language, validation]) => [language, { validation }]),
      ),
      interpolation: { escapeValue: false },
    });
  });

  it('translates a fixed message', () => {
    const t = i18n.getFixedT('de');
    expect(translateProblem(t, 'Use at most 100 characters.')).toBe(
      'Verwenden Sie höchstens 100 Zeichen.',
    );
    expect(translateProblem(t, 'A role with this name already exists.')).toBe(
      'Eine Rolle mit diesem Namen existiert bereits.',
    );
    expect(translateProblem(i18n.getFixedT('fr'), 'Enter a name.')).toBe('Saisissez un nom.');
  });

  it('translates a message with a count, in the right plural form', () => {
    const t = i18n.getFixedT('de');
    expect(translateProblem(t, 'This role is held by 3 users. Give them another role first.')).toBe(
      'Diese Rolle ist 3 Benutzern zugewiesen. Weisen Sie ihnen zuerst eine andere Rolle zu.',
    );
    expect(translateProblem(t, 'This role is held by 1 user. Give them another role first.')).toBe(
      'Diese Rolle ist 1 Benutzer zugewiesen. Weisen Sie ihm zuerst eine andere Rolle zu.',
    );
    expect(
      translateProblem(i18n.getFixedT('it'), 'Too many requests. Try again in 42 seconds.'),
    ).toBe('Troppe richieste. Riprovare tra 42 secondi.');
    expect(
      translateProblem(i18n.getFixedT('en'), 'Too many requests. Try again in 1 seconds.'),
    ).toBe('Too many requests. Try again in 1 second.');
  });

  it('translates a message with a name and keeps the name as sent', () => {
    expect(
      translateProblem(i18n.getFixedT('fr'), 'The built-in role Admin cannot be deleted.'),
    ).toBe('Le rôle intégré Admin ne peut pas être supprimé.');
    expect(
      translateProblem(i18n.getFixedT('de'), 'You need the permission "users:write" to do this.'),
    ).toBe('Dazu benötigen Sie die Berechtigung „users:write“.');
  });

  it('returns an unknown message unchanged', () => {
    const message = 'Something nobody has translated yet.';
    expect(translateProblem(i18n.getFixedT('de'), message)).toBe(message);
    expect(translateProblem(i18n.getFixedT('en'), 'Enter a name.')).toBe('Enter a name.');
  });

  it('every template key is in the namespace', () => {
    for (const template of problemTemplates)
      expect(en, template.key).toHaveProperty([template.key]);
  });
});

describe('validation namespace', () => {
  it('has a translation for every message of the contract', () => {
    const files = readdirSync(CONTRACT).filter((file) => file.endsWith('.ts'));
    const found = files.flatMap((file) => {
      const { messages, unknownTemplates } = contractMessages(
        readFileSync(join(CONTRACT, file), 'utf8'),
      );
      expect(unknownTemplates, `${file}: add these templates to TEMPLATES`).toEqual([]);
      return messages;
    });
    // A guard against the extraction silently finding nothing.
    expect(found.length).toBeGreaterThan(50);
    const missing = [...new Set(found)].filter((message) => !(message in en));
    expect(missing, 'contract messages missing from locales/validation/en.json').toEqual([]);
  });

  it('en keys are the messages themselves', () => {
    for (const [key, value] of Object.entries(en)) {
      if (!key.endsWith('_one')) expect(value, key).toBe(key);
    }
  });

  it.each(['de', 'fr', 'it'])('%s has exactly the keys of en', (language) => {
    expect(Object.keys(locales[language]!).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(Object.keys(locales))(
    '%s has no empty translation and keeps every placeholder',
    (language) => {
      for (const [key, value] of Object.entries(locales[language]!)) {
        expect(value.trim(), key).not.toBe('');
        const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
        expect(placeholders(value), key).toEqual(placeholders(key));
      }
    },
  );
});
