import { describe, expect, it } from 'vitest';
import de from './de.json';
import en from './en.json';
import fr from './fr.json';
import it_ from './it.json';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe('locales', () => {
  const reference = keys(en).sort();
  it.each([
    ['de', de],
    ['fr', fr],
    ['it', it_],
  ])('%s has exactly the keys of en', (_name, locale) => {
    expect(keys(locale as Tree).sort()).toEqual(reference);
  });

  it('no translation is empty', () => {
    for (const locale of [en, de, fr, it_]) {
      for (const key of keys(locale as Tree)) {
        const value = key.split('.').reduce<unknown>((node, part) => (node as Tree)[part], locale);
        expect(value, key).not.toBe('');
      }
    }
  });
});
