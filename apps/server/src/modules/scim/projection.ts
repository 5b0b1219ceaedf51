/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5) on a resource already built:
 * `id` and `schemas` are always returned; names ignore case and may carry the schema's URN.
 */

type Json = Record<string, unknown>;

const strip = (path: string, urns: readonly string[]) => {
  const lower = path.toLowerCase();
  for (const urn of urns) {
    const prefix = `${urn.toLowerCase()}:`;
    if (lower.startsWith(prefix)) return lower.slice(prefix.length);
  }
  return lower;
};

const ALWAYS = new Set(['id', 'schemas']);

export function project(
  resource: Json,
  urns: readonly string[],
  attributes: string[] | undefined,
  excluded: string[] | undefined,
): Json {
  if (attributes && attributes.length > 0) {
    const wanted = attributes.map((path) => strip(path, urns).split('.'));
    const result: Json = {};
    for (const [key, value] of Object.entries(resource)) {
      const lower = key.toLowerCase();
      if (ALWAYS.has(lower)) {
        result[key] = value;
        continue;
      }
      const matching = wanted.filter(([top]) => top === lower);
      if (matching.length === 0) continue;
      const whole = matching.some((path) => path.length === 1);
      if (whole || typeof value !== 'object' || value === null || Array.isArray(value)) {
        result[key] = value;
        continue;
      }
      const subs = new Set(matching.map((path) => path[1]));
      result[key] = Object.fromEntries(
        Object.entries(value as Json).filter(([sub]) => subs.has(sub.toLowerCase())),
      );
    }
    return result;
  }
  if (excluded && excluded.length > 0) {
    const unwanted = excluded.map((path) => strip(path, urns).split('.'));
    const result: Json = { ...resource };
    for (const [top, sub] of unwanted) {
      const key = Object.keys(result).find((name) => name.toLowerCase() === top);
      if (!key || ALWAYS.has(top!)) continue;
      const value = result[key];
      if (sub === undefined) delete result[key];
      else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        result[key] = Object.fromEntries(
          Object.entries(value as Json).filter(([name]) => name.toLowerCase() !== sub),
        );
      }
    }
    return result;
  }
  return resource;
}
