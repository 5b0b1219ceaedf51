import { z } from 'zod';
import { singleLineText } from '@tc/contract/text';
import { badRequest } from './errors';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const EXTENSION_PREFIX = 'urn:ietf:params:scim:schemas:extension:';

/** A user as SCIM reads it: one row of users and its role. */
export interface ScimUserRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  externalId: string | null;
  roleId: string;
  roleName: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What SCIM may write of a user. */
export interface UserFields {
  email: string;
  firstName: string;
  lastName: string;
  active: boolean;
  externalId: string | null;
}

/** The weak entity tag of a resource: its last change, to the millisecond. */
export const versionOf = (updatedAt: Date) => `W/"${updatedAt.getTime()}"`;

export function toScimUser(row: ScimUserRow, baseUrl: string) {
  const location = `${baseUrl}/Users/${row.id}`;
  return {
    schemas: [USER_SCHEMA],
    id: row.id,
    ...(row.externalId === null ? {} : { externalId: row.externalId }),
    userName: row.email,
    name: {
      givenName: row.firstName,
      familyName: row.lastName,
      formatted: `${row.firstName} ${row.lastName}`.trim(),
    },
    displayName: `${row.firstName} ${row.lastName}`.trim(),
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.status === 'active',
    groups: [{ value: row.roleId, display: row.roleName, $ref: `${baseUrl}/Groups/${row.roleId}` }],
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location,
      version: versionOf(row.updatedAt),
    },
  };
}
export type ScimUser = ReturnType<typeof toScimUser>;

/** Attributes written and read back. */
export const WRITABLE = ['userName', 'name', 'displayName', 'emails', 'active', 'externalId'];
/** Set by the server; a PATCH aimed at one is refused (mutability). */
export const READ_ONLY = ['id', 'meta', 'groups', 'schemas'];
/**
 * Core attributes that identity systems send by default (Entra ID, Okta) and this console does
 * not keep: accepted and left out, so that provisioning does not fail over a phone number.
 */
export const IGNORED = [
  'nickName',
  'profileUrl',
  'title',
  'userType',
  'preferredLanguage',
  'locale',
  'timezone',
  'password',
  'phoneNumbers',
  'ims',
  'photos',
  'addresses',
  'entitlements',
  'roles',
  'x509Certificates',
];

const canonical = new Map(
  [...WRITABLE, ...READ_ONLY, ...IGNORED].map((name) => [name.toLowerCase(), name]),
);

/** The attribute's own spelling, or undefined for none of the User schema's. */
export const canonicalUserAttribute = (name: string) => canonical.get(name.toLowerCase());

export const isExtension = (name: string) => name.toLowerCase().startsWith(EXTENSION_PREFIX);

const nameText = singleLineText().trim().max(100);
const emailText = singleLineText().trim().toLowerCase().max(254).check(z.email());
const externalIdText = singleLineText().trim().min(1).max(255);

export function readEmail(value: unknown, attribute: string): string {
  const parsed = emailText.safeParse(value);
  if (!parsed.success) throw badRequest('invalidValue', `${attribute} must be an e-mail address`);
  return parsed.data;
}

function readName(value: unknown, attribute: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = nameText.safeParse(value);
  if (!parsed.success) {
    throw badRequest('invalidValue', `${attribute} must be one line of at most 100 characters`);
  }
  return parsed.data;
}

/** SCIM booleans, and the strings "True"/"False" some clients (Entra ID) send for them. */
export function readBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) {
    return value.toLowerCase() === 'true';
  }
  throw badRequest('invalidValue', `${attribute} must be true or false`);
}

function readExternalId(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const parsed = externalIdText.safeParse(value);
  if (!parsed.success) {
    throw badRequest('invalidValue', 'externalId must be one line of 1 to 255 characters');
  }
  return parsed.data;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys of an object by their lower-case names (SCIM attribute names ignore case). */
function byLowerCase(record: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(record).map(([key, value]) => [key.toLowerCase(), value]));
}

/** The primary e-mail of an `emails` value (else the work one, else the first), if any. */
function primaryEmail(emails: unknown): unknown {
  if (emails === undefined || emails === null) return undefined;
  if (!Array.isArray(emails) || !emails.every(isObject)) {
    throw badRequest('invalidValue', 'emails must be a list of objects');
  }
  const entries = emails.map(byLowerCase);
  const chosen =
    entries.find((entry) => entry.get('primary') === true || entry.get('primary') === 'True') ??
    entries.find((entry) => String(entry.get('type')).toLowerCase() === 'work') ??
    entries[0];
  return chosen?.get('value');
}

/**
 * The user a POST or PUT body (or a patched resource) describes. Unknown attributes are
 * refused (invalidSyntax); read-only and ignored ones are left out. The e-mail is userName;
 * `emailFallback` says whether the primary address of `emails` stands in when userName is
 * unchanged from `previous` (a PATCH of the address alone).
 */
export function readUserBody(body: unknown, previous?: ScimUser): UserFields {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (
      !canonicalUserAttribute(key) &&
      !isExtension(key) &&
      key.toLowerCase() !== USER_SCHEMA.toLowerCase()
    ) {
      throw badRequest('invalidSyntax', `Unknown attribute "${key}"`);
    }
  }
  const fields = byLowerCase(body);
  let email = readEmail(fields.get('username'), 'userName');
  if (previous && email === previous.userName.toLowerCase()) {
    const primary = primaryEmail(fields.get('emails'));
    if (primary !== undefined && primary !== null) email = readEmail(primary, 'emails.value');
  } else {
    primaryEmail(fields.get('emails'));
  }
  const name = fields.get('name');
  if (name !== undefined && name !== null && !isObject(name)) {
    throw badRequest('invalidValue', 'name must be an object');
  }
  const names = byLowerCase(isObject(name) ? name : {});
  const displayName = readName(fields.get('displayname'), 'displayName');
  const [firstOfDisplay, ...restOfDisplay] = (displayName ?? '').split(' ');
  const firstName =
    readName(names.get('givenname'), 'name.givenName') ||
    firstOfDisplay ||
    email.slice(0, email.indexOf('@'));
  const lastName = readName(names.get('familyname'), 'name.familyName') ?? restOfDisplay.join(' ');
  const active = fields.has('active') ? readBoolean(fields.get('active'), 'active') : true;
  return {
    email,
    firstName,
    lastName,
    active,
    externalId: readExternalId(fields.get('externalid')),
  };
}
