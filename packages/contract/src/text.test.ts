import { problemText } from './problem-codes';
import { describe, expect, it } from 'vitest';
import { multilineText, singleLineText } from './text';

const accepts = (schema: ReturnType<typeof singleLineText>, text: string) =>
  schema.safeParse(text).success;

describe('the shared string builders', () => {
  const line = singleLineText();
  const text = multilineText();

  it('take text of any script, emoji (surrogate pairs) and spaces', () => {
    for (const value of ['Ada Lovelace', 'Zoë Ångström', '東京', '😀 ok', '\u00A0', '']) {
      expect(accepts(line, value)).toBe(true);
      expect(accepts(text, value)).toBe(true);
    }
  });

  it('refuse C0 controls, DEL and C1 controls in one line, tab and line breaks included', () => {
    for (const control of [
      '\u0000',
      '\u0001',
      '\t',
      '\n',
      '\r',
      '\u001F',
      '\u007F',
      '\u0085',
      '\u009F',
    ]) {
      expect(accepts(line, `a${control}b`)).toBe(false);
    }
  });

  it('allow tab and line breaks in a text, and refuse the other controls', () => {
    expect(accepts(text, 'one\ttwo\r\nthree\n')).toBe(true);
    for (const control of ['\u0000', '\u0008', '\u000B', '\u000C', '\u001B', '\u007F', '\u0080']) {
      expect(accepts(text, `a${control}b`)).toBe(false);
    }
  });

  it('refuse an unpaired surrogate, high or low, anywhere', () => {
    for (const value of ['\uD800', 'a\uDBFF', '\uDC00a', '\uDE00\uD83D', '😀\uD83D']) {
      expect(accepts(line, value)).toBe(false);
      expect(accepts(text, value)).toBe(false);
    }
  });

  it('name the problem by its code, so the field can say it in any language', () => {
    const result = line.safeParse('a\u0000');
    expect(result.error?.issues[0]?.message).toBe('text.control_in_line');
    expect(problemText('text.control_in_line')).toMatch(/control characters/);
  });
});
