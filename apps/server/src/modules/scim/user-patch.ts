import { scimPatch, type ScimPatchOperation } from 'scim-patch';
import { badRequest } from './errors';
import { readPatchOperations, splitPath, type PatchOperation } from './patch-ops';
import {
  canonicalUserAttribute,
  IGNORED,
  isExtension,
  READ_ONLY,
  USER_SCHEMA,
  type ScimUser,
} from './user-resource';

const NAME_PARTS = new Map([
  ['givenname', 'givenName'],
  ['familyname', 'familyName'],
  ['formatted', 'formatted'],
]);
const IGNORED_NAME_PARTS = new Set(['middlename', 'honorificprefix', 'honorificsuffix']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An operation with its path in the User schema's own spelling; undefined for one aimed at an
 * attribute this console does not keep (it is accepted and has no effect).
 */
function canonicalOperation(operation: PatchOperation): PatchOperation | undefined {
  const path = operation.path!;
  if (isExtension(path)) return undefined;
  const { root, rest } = splitPath(path, USER_SCHEMA);
  const attribute = canonicalUserAttribute(root);
  if (!attribute) throw badRequest('invalidPath', `Unknown attribute "${root}"`);
  if (READ_ONLY.includes(attribute)) {
    throw badRequest('mutability', `The attribute "${attribute}" is read-only`);
  }
  if (IGNORED.includes(attribute)) return undefined;
  if (attribute === 'name' && rest.startsWith('.')) {
    const part = rest.slice(1).toLowerCase();
    if (IGNORED_NAME_PARTS.has(part)) return undefined;
    const canonical = NAME_PARTS.get(part);
    if (!canonical) throw badRequest('invalidPath', `Unknown attribute "name${rest}"`);
    return { ...operation, path: `name.${canonical}` };
  }
  return { ...operation, path: `${attribute}${rest}` };
}

/**
 * A path-less add or replace is one operation per attribute of its value (sub-attributes of
 * `name` each on their own, so the others stay, RFC 7644 §3.5.2.3); keys may be paths
 * themselves ("name.givenName"), as Entra ID sends them.
 */
function expand(operation: PatchOperation): PatchOperation[] {
  if (operation.path !== undefined) return [operation];
  if (!isObject(operation.value)) {
    throw badRequest('invalidValue', 'Without a path, the value is an object of attributes');
  }
  return Object.entries(operation.value).flatMap(([key, value]) => {
    if (key.toLowerCase() === USER_SCHEMA.toLowerCase() && isObject(value)) {
      return expand({ op: operation.op, value });
    }
    if (key.toLowerCase() === 'name' && isObject(value)) {
      return Object.entries(value).map(([part, partValue]) => ({
        op: operation.op,
        path: `name.${part}`,
        value: partValue,
      }));
    }
    if (key.toLowerCase() === 'id' || key.toLowerCase() === 'schemas') return [];
    return [{ op: operation.op, path: key, value }];
  });
}

/** The resource after a PatchOp body's operations, for readUserBody to check and map back. */
export function patchUserResource(resource: ScimUser, body: unknown): Record<string, unknown> {
  const operations = readPatchOperations(body)
    .flatMap(expand)
    .map(canonicalOperation)
    .filter((operation) => operation !== undefined);
  if (operations.length === 0) return resource;
  const withDates = {
    ...resource,
    meta: { ...resource.meta, created: new Date(), lastModified: new Date() },
  };
  try {
    return scimPatch(withDates, operations as ScimPatchOperation[], {
      mutateDocument: false,
      treatMissingAsAdd: true,
    }) as unknown as Record<string, unknown>;
  } catch (error) {
    const code = (error as { scimCode?: string }).scimCode;
    throw badRequest(
      code === 'noTarget' ? 'noTarget' : code === 'invalidPath' ? 'invalidPath' : 'invalidValue',
      error instanceof Error ? error.message : 'The operation cannot be applied',
    );
  }
}
