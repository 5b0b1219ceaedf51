import { and, or, sql, type SQL } from 'drizzle-orm';
import { parse, type Filter } from 'scim2-parse-filter';
import { badRequest } from './errors';
import { isUuid } from '@tc/contract/text';

/** Longer or deeper filters are refused before any SQL is built. */
export const FILTER_MAX_LENGTH = 1000;
export const FILTER_MAX_DEPTH = 10;

/** How one attribute path of a resource reads in SQL. */
export type FilterAttribute =
  | {
      type: 'string';
      expr: SQL;
      /** Compared as written (externalId) or regardless of case (userName, names). */
      caseExact: boolean;
      /** The column may be null: a negated comparison must still match such rows. */
      nullable?: boolean;
    }
  | { type: 'dateTime' | 'boolean' | 'id'; expr: SQL }
  /** A value every resource has (each user's one e-mail is the primary work address). */
  | { type: 'constant'; value: string | boolean }
  /** Built by the resource itself (a group's members). */
  | { type: 'custom'; build(op: string, value: unknown): SQL };

export type AttributeLookup = (path: string) => FilterAttribute | undefined;

const invalid = (detail: string) => badRequest('invalidFilter', detail);

function depthOf(filter: Filter): number {
  switch (filter.op) {
    case 'and':
    case 'or':
      return 1 + Math.max(0, ...filter.filters.map(depthOf));
    case 'not':
      return 1 + depthOf(filter.filter);
    case '[]':
      return 1 + depthOf(filter.valFilter);
    default:
      return 1;
  }
}

/** Parses a filter within the limits; 400 invalidFilter for anything else. */
export function parseFilter(text: string): Filter {
  if (text.length > FILTER_MAX_LENGTH) {
    throw invalid(`The filter is longer than ${FILTER_MAX_LENGTH} characters`);
  }
  // PostgreSQL text holds no NUL; no attribute value can contain one.
  if (text.includes('\u0000')) throw invalid('The filter contains a NUL character');
  // Nesting is counted before parsing too, so the parser never recurses deeply.
  let open = 0;
  for (const character of text) {
    if (character === '(' || character === '[') open += 1;
    if (open > FILTER_MAX_DEPTH)
      throw invalid(`The filter is nested deeper than ${FILTER_MAX_DEPTH}`);
    if (character === ')' || character === ']') open = Math.max(0, open - 1);
  }
  let filter: Filter;
  try {
    filter = parse(text);
  } catch {
    throw invalid('The filter is not valid SCIM filter syntax');
  }
  if (depthOf(filter) > FILTER_MAX_DEPTH) {
    throw invalid(`The filter is nested deeper than ${FILTER_MAX_DEPTH}`);
  }
  return filter;
}

const likePattern = (op: string, value: string) => {
  const escaped = value.replace(/[\\%_]/g, (character) => `\\${character}`);
  if (op === 'co') return `%${escaped}%`;
  if (op === 'sw') return `${escaped}%`;
  return `%${escaped}`;
};

const ORDER: Record<string, string> = { gt: '>', ge: '>=', lt: '<', le: '<=' };

function compareString(
  attribute: Extract<FilterAttribute, { type: 'string' }>,
  op: string,
  value: unknown,
): SQL {
  if (op === 'pr') return sql`(${attribute.expr} is not null and ${attribute.expr} <> '')`;
  if (value === null && (op === 'eq' || op === 'ne')) {
    return op === 'eq' ? sql`${attribute.expr} is null` : sql`${attribute.expr} is not null`;
  }
  if (typeof value !== 'string') throw invalid(`Compare ${op} needs a string value here`);
  const column = attribute.caseExact ? attribute.expr : sql`lower(${attribute.expr})`;
  const operand = attribute.caseExact ? sql`${value}` : sql`lower(${value})`;
  switch (op) {
    case 'eq':
      return sql`${column} = ${operand}`;
    case 'ne':
      return attribute.nullable
        ? sql`${column} is distinct from ${operand}`
        : sql`${column} <> ${operand}`;
    case 'co':
    case 'sw':
    case 'ew': {
      const pattern = likePattern(op, value);
      return attribute.caseExact
        ? sql`${column} like ${pattern}`
        : sql`${column} like lower(${pattern})`;
    }
    default:
      return sql`${column} ${sql.raw(ORDER[op]!)} ${operand}`;
  }
}

function compareDate(expr: SQL, op: string, value: unknown): SQL {
  if (op === 'pr') return sql`${expr} is not null`;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
    throw invalid('A date is compared with an ISO 8601 date-time string');
  }
  const at = new Date(value).toISOString();
  if (op === 'eq') return sql`${expr} = ${at}::timestamptz`;
  if (op === 'ne') return sql`${expr} <> ${at}::timestamptz`;
  if (ORDER[op]) return sql`${expr} ${sql.raw(ORDER[op])} ${at}::timestamptz`;
  throw invalid(`A date cannot be compared with ${op}`);
}

function compareBoolean(expr: SQL, op: string, value: unknown): SQL {
  if (op === 'pr') return sql`true`;
  if (typeof value !== 'boolean' || (op !== 'eq' && op !== 'ne')) {
    throw invalid('A boolean is compared with eq or ne and true or false');
  }
  return op === 'eq' ? sql`${expr} = ${value}` : sql`${expr} <> ${value}`;
}

function compareId(expr: SQL, op: string, value: unknown): SQL {
  if (op === 'pr') return sql`true`;
  if (op !== 'eq' && op !== 'ne') throw invalid(`An id cannot be compared with ${op}`);
  if (typeof value !== 'string') throw invalid('An id is a string');
  // No resource has an id that is not a UUID: eq matches none, ne all.
  if (!isUuid(value)) return op === 'eq' ? sql`false` : sql`true`;
  return op === 'eq' ? sql`${expr} = ${value}::uuid` : sql`${expr} <> ${value}::uuid`;
}

function compareConstant(constant: string | boolean, op: string, value: unknown): SQL {
  const matches = (() => {
    if (op === 'pr') return true;
    if (typeof constant === 'boolean') return op === 'eq' ? value === constant : value !== constant;
    if (typeof value !== 'string') return op === 'ne';
    const [left, right] = [constant.toLowerCase(), value.toLowerCase()];
    if (op === 'eq') return left === right;
    if (op === 'ne') return left !== right;
    if (op === 'co') return left.includes(right);
    if (op === 'sw') return left.startsWith(right);
    if (op === 'ew') return left.endsWith(right);
    return false;
  })();
  return matches ? sql`true` : sql`false`;
}

/** The SQL condition of a parsed filter, attribute by attribute through `lookup`. */
export function filterToSql(filter: Filter, lookup: AttributeLookup, prefix = ''): SQL {
  switch (filter.op) {
    case 'and':
      return and(...filter.filters.map((part) => filterToSql(part, lookup, prefix)))!;
    case 'or':
      return or(...filter.filters.map((part) => filterToSql(part, lookup, prefix)))!;
    case 'not':
      // Unknown (null) is not true: the negation of a comparison with a missing value matches.
      return sql`not coalesce(${filterToSql(filter.filter, lookup, prefix)}, false)`;
    case '[]':
      return filterToSql(filter.valFilter, lookup, `${prefix}${filter.attrPath}.`);
    default: {
      const path = `${prefix}${filter.attrPath}`;
      const attribute = lookup(path);
      if (!attribute) throw invalid(`The attribute "${path}" cannot be filtered on`);
      const value = 'compValue' in filter ? filter.compValue : undefined;
      const condition = (() => {
        switch (attribute.type) {
          case 'string':
            return compareString(attribute, filter.op, value);
          case 'dateTime':
            return compareDate(attribute.expr, filter.op, value);
          case 'boolean':
            return compareBoolean(attribute.expr, filter.op, value);
          case 'id':
            return compareId(attribute.expr, filter.op, value);
          case 'constant':
            return compareConstant(attribute.value, filter.op, value);
          default:
            return attribute.build(filter.op, value);
        }
      })();
      return sql`(${condition})`;
    }
  }
}

/** An attribute path without its schema's URN, lower-case (SCIM names ignore case). */
export function bareAttributePath(path: string, schemaUrn: string): string {
  const lower = path.toLowerCase();
  const urn = `${schemaUrn.toLowerCase()}:`;
  return lower.startsWith(urn) ? lower.slice(urn.length) : lower;
}
