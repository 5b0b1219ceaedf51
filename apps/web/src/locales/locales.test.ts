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

/** Flat keys (problem codes contain dots) are looked up whole before descending. */
function valueAt(tree: Tree, key: string): unknown {
  if (key in tree) return tree[key];
  return key.split('.').reduce<unknown>((node, part) => (node as Tree)[part], tree);
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

  // Screen namespaces: locales/<namespace>/<language>.json.
  const files = import.meta.glob<Tree>('./*/*.json', { eager: true, import: 'default' });
  const namespaces = [...new Set(Object.keys(files).map((path) => path.split('/')[1]!))];
  it.each(namespaces)('namespace %s has every key of en in de, fr and it, none empty', (ns) => {
    const english = files[`./${ns}/en.json`];
    expect(english, `${ns}/en.json`).toBeDefined();
    for (const language of ['de', 'fr', 'it']) {
      const locale = files[`./${ns}/${language}.json`];
      expect(locale, `${ns}/${language}.json`).toBeDefined();
      expect(keys(locale!).sort(), `${ns}/${language}`).toEqual(keys(english!).sort());
      for (const key of keys(locale!)) expect(valueAt(locale!, key), key).not.toBe('');
    }
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
