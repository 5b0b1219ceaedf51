/**
 * A field of a form posted by a browser, as text: a repeated field counts once, anything else
 * (none, an object a content type made) is empty. The forms are never refused for their shape:
 * the routes they are sent on to check the values and the page shows their answer.
 */
export function formField(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === 'string' ? first : '';
}

/** The fields of a form by name (missing ones empty). */
export function formFields<Name extends string>(
  body: unknown,
  names: readonly Name[],
): Record<Name, string> {
  return Object.fromEntries(names.map((name) => [name, formField(body, name)])) as Record<
    Name,
    string
  >;
}

/** A value shown again on the page: a long one is cut, as no field takes more. */
export const shown = (value: string) => value.slice(0, 1000);
