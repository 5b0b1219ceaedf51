import type { FastifyRequest } from 'fastify';
import { badRequest, preconditionFailed } from './errors';

export const MAX_COUNT = 200;
/** Offsets beyond this are refused: deep pages are read by filter, not by skipping rows. */
export const MAX_START_INDEX = 1_000_000;

export interface ListParams {
  filter?: string;
  sortBy?: string;
  descending: boolean;
  /** 1-based (RFC 7644 §3.4.2.4). */
  startIndex: number;
  count: number;
  attributes?: string[];
  excludedAttributes?: string[];
}

const oneValue = (value: unknown, name: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest('invalidValue', `${name} is given once`);
  return value;
};

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d{1,10}$/.test(value)) throw badRequest('invalidValue', `${name} must be an integer`);
  return Number(value);
}

const attributeList = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name.length > 0);

/**
 * The list parameters of a query string or of a POST /.search body. Out-of-range numbers are
 * clamped as RFC 7644 says (startIndex < 1 is 1, count < 0 is 0); count is capped.
 */
export function readListParams(source: Record<string, unknown>): ListParams {
  const text = (name: string) => {
    const value = source[name];
    if (typeof value === 'number') return String(value);
    if (Array.isArray(value) && name.endsWith('ttributes')) return value.join(',');
    return oneValue(value, name);
  };
  const sortOrder = text('sortOrder')?.toLowerCase();
  if (sortOrder !== undefined && sortOrder !== 'ascending' && sortOrder !== 'descending') {
    throw badRequest('invalidValue', 'sortOrder is ascending or descending');
  }
  const startIndex = Math.max(1, integer(text('startIndex'), 'startIndex', 1));
  if (startIndex > MAX_START_INDEX) {
    throw badRequest('invalidValue', `startIndex is at most ${MAX_START_INDEX}`);
  }
  return {
    filter: text('filter'),
    sortBy: text('sortBy'),
    descending: sortOrder === 'descending',
    startIndex,
    count: Math.min(MAX_COUNT, Math.max(0, integer(text('count'), 'count', 100))),
    attributes: attributeList(text('attributes')),
    excludedAttributes: attributeList(text('excludedAttributes')),
  };
}

/** The If-Match header's entity tags, if the request has one. */
export function ifMatchOf(request: FastifyRequest): string | undefined {
  const header = request.headers['if-match'];
  return Array.isArray(header) ? header.join(',') : header;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** 412 unless If-Match (when sent) names the current version or `*`. */
export function requireVersion(ifMatch: string | undefined, current: string): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map(opaque);
  if (tags.includes('*') || tags.includes(opaque(current))) return;
  throw preconditionFailed();
}
