import { describe, expect, it } from 'vitest';
import { PROBLEM_CODES, PROBLEM_TEXTS } from '@tc/contract/problem-codes';
import de from './problems/de.json';
import en from './problems/en.json';
import fr from './problems/fr.json';
import it_ from './problems/it.json';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** The i18next keys a code needs: itself, or its plural forms when its text depends on a count. */
function keysOf(code: (typeof PROBLEM_CODES)[number]): Array<[key: string, english: string]> {
  const entry: string | { one: string; other: string } = PROBLEM_TEXTS[code];
  if (typeof entry === 'string') return [[code, entry]];
  return [
    [`${code}_one`, entry.one],
    [`${code}_other`, entry.other],
  ];
}

// Every code the server can answer with is a key of the contract's catalogue: the server's
// problem helpers only take those codes, so walking the catalogue walks what can be emitted.
describe('problem codes', () => {
  it.each([
    ['de', de],
    ['fr', fr],
    ['it', it_],
  ])('every code has a %s text with the same parameters as the English one', (_name, locale) => {
    const texts = locale as Record<string, string>;
    for (const code of PROBLEM_CODES) {
      for (const [key, english] of keysOf(code)) {
        expect(texts[key], key).toBeTruthy();
        expect(placeholders(texts[key]!), key).toEqual(placeholders(english));
      }
    }
  });

  it('the English texts are the catalogue itself, and no locale keeps a retired code', () => {
    const expected = Object.fromEntries(PROBLEM_CODES.flatMap(keysOf));
    expect(en).toEqual(expected);
    for (const locale of [de, fr, it_]) {
      expect(Object.keys(locale).sort()).toEqual(Object.keys(expected).sort());
    }
  });
});
