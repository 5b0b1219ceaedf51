import { z } from 'zod';

/**
 * The string builders every request schema uses, so that no field accepts characters it has
 * no use for. PostgreSQL refuses NUL in text (the request would fail as a 500) and stores an
 * unpaired surrogate as U+FFFD (the value would change silently); the other control
 * characters are invisible in the console and only ever arrive by mistake or on purpose.
 *
 * In a `u` regular expression a surrogate pair is one code point, so `\p{Cs}` matches only an
 * unpaired half. `\p{Cc}` is C0, DEL and C1. Each expression looks at one character at a
 * time, so it runs in linear time.
 */
const NOT_IN_A_LINE = /\p{Cc}/u;
const NOT_IN_A_TEXT = /(?![\t\n\r])\p{Cc}/u;
const UNPAIRED_SURROGATE = /\p{Cs}/u;

const CONTROL_IN_LINE_MESSAGE = 'text.control_in_line';
const CONTROL_IN_TEXT_MESSAGE = 'text.control_in_text';
const UNPAIRED_SURROGATE_MESSAGE = 'text.invalid_character';

type StringParams = Parameters<typeof z.string>[0];

/**
 * A one-line string: names, e-mail addresses, search text, tokens, header and path values.
 * Refuses every control character (tab and line breaks included) and unpaired surrogates;
 * the checks run first, so a later `.trim()` cannot hide a stray line break.
 */
export function singleLineText(params?: StringParams) {
  return z
    .string(params)
    .refine((text) => !NOT_IN_A_LINE.test(text), CONTROL_IN_LINE_MESSAGE)
    .refine((text) => !UNPAIRED_SURROGATE.test(text), UNPAIRED_SURROGATE_MESSAGE);
}

/**
 * A free text that may span lines (descriptions, chat messages): tab, line feed and carriage
 * return are allowed; other control characters and unpaired surrogates are refused.
 */
export function multilineText(params?: StringParams) {
  return z
    .string(params)
    .refine((text) => !NOT_IN_A_TEXT.test(text), CONTROL_IN_TEXT_MESSAGE)
    .refine((text) => !UNPAIRED_SURROGATE.test(text), UNPAIRED_SURROGATE_MESSAGE);
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value has the shape of a UUID (any version): an id that does not cannot name a
 * row, so it is answered as not found without asking the database, which would refuse it.
 */
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID_PATTERN.test(value);
