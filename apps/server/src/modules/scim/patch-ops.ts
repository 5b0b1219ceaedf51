import { badRequest } from './errors';

/** One PATCH operation, its name lower-case (Entra ID writes "Replace", "Add"). */
export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
}

export const MAX_OPERATIONS = 100;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operations of a PatchOp body (RFC 7644 §3.5.2), checked for shape only. */
export function readPatchOperations(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The body must be a JSON object');
  const key = Object.keys(body).find((name) => name.toLowerCase() === 'operations');
  const operations = key === undefined ? undefined : body[key];
  if (!Array.isArray(operations) || operations.length === 0) {
    throw badRequest('invalidSyntax', 'Operations must be a non-empty list');
  }
  if (operations.length > MAX_OPERATIONS) {
    throw badRequest('invalidSyntax', `At most ${MAX_OPERATIONS} operations at once`);
  }
  return operations.map((operation): PatchOperation => {
    if (!isObject(operation)) throw badRequest('invalidSyntax', 'An operation is an object');
    const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : undefined;
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw badRequest('invalidSyntax', 'op is add, replace or remove');
    }
    const path = operation.path;
    if (path !== undefined && (typeof path !== 'string' || path.length > 1000)) {
      throw badRequest('invalidPath', 'path must be a string of at most 1,000 characters');
    }
    if (typeof path === 'string' && path.includes('\u0000')) {
      throw badRequest('invalidPath', 'path must not contain a NUL character');
    }
    if (op === 'remove' && (path === undefined || path === '')) {
      throw badRequest('noTarget', 'A remove operation needs a path');
    }
    if (op !== 'remove' && !('value' in operation)) {
      throw badRequest('invalidSyntax', `An ${op} operation needs a value`);
    }
    return {
      op,
      ...(path ? { path } : {}),
      ...('value' in operation ? { value: operation.value } : {}),
    };
  });
}

/** The attribute a path starts with: up to its first "[" or "." after any schema URN. */
export function splitPath(path: string, schemaUrn: string): { root: string; rest: string } {
  let bare = path;
  if (path.toLowerCase().startsWith(`${schemaUrn.toLowerCase()}:`)) {
    bare = path.slice(schemaUrn.length + 1);
  }
  const end = bare.search(/[[.]/);
  return end < 0 ? { root: bare, rest: '' } : { root: bare.slice(0, end), rest: bare.slice(end) };
}
