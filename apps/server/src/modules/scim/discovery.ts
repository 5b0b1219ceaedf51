import { GROUP_SCHEMA, MAX_MEMBERS_LISTED } from './groups-queries';
import { MAX_OPERATIONS } from './patch-ops';
import { MAX_COUNT } from './request-params';
import { USER_SCHEMA } from './user-resource';

/**
 * The discovery resources (RFC 7644 §4): what this server supports, described for clients
 * that read them. Served without authentication: they hold nothing of the tenant's.
 */

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: `${baseUrl}/ServiceProviderConfig`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description:
          'An access token of the client credentials grant of a confidential application of this tenant whose service roles hold the "scim" permission.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A user of the tenant; the e-mail address is userName',
      schema: USER_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: `A role of the tenant; members are the users holding it (at most ${MAX_MEMBERS_LISTED} listed)`,
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

interface Attribute {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'dateTime' | 'reference';
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable';
  uniqueness?: 'none' | 'server';
  subAttributes?: Attribute[];
}

const attribute = (a: Attribute): Record<string, unknown> => ({
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...a,
  ...(a.subAttributes ? { subAttributes: a.subAttributes.map(attribute) } : {}),
});

export function schemas(baseUrl: string) {
  const user = {
    schemas: [SCHEMA_SCHEMA],
    id: USER_SCHEMA,
    name: 'User',
    description: `The attributes kept; at most ${MAX_OPERATIONS} operations per PATCH`,
    attributes: [
      { name: 'userName', type: 'string', required: true, uniqueness: 'server' },
      { name: 'externalId', type: 'string', caseExact: true, uniqueness: 'server' },
      {
        name: 'name',
        type: 'complex',
        subAttributes: [
          { name: 'givenName', type: 'string' },
          { name: 'familyName', type: 'string' },
          { name: 'formatted', type: 'string', mutability: 'readOnly' },
        ],
      },
      { name: 'displayName', type: 'string', mutability: 'readOnly' },
      {
        name: 'emails',
        type: 'complex',
        multiValued: true,
        subAttributes: [
          { name: 'value', type: 'string' },
          { name: 'type', type: 'string' },
          { name: 'primary', type: 'boolean' },
        ],
      },
      { name: 'active', type: 'boolean' },
      {
        name: 'groups',
        type: 'complex',
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [
          { name: 'value', type: 'string', mutability: 'readOnly' },
          { name: 'display', type: 'string', mutability: 'readOnly' },
        ],
      },
    ].map((a) => attribute(a as Attribute)),
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${USER_SCHEMA}` },
  };
  const group = {
    schemas: [SCHEMA_SCHEMA],
    id: GROUP_SCHEMA,
    name: 'Group',
    description: 'A role; a user is a member of exactly one',
    attributes: [
      { name: 'displayName', type: 'string', required: true, uniqueness: 'server' },
      {
        name: 'members',
        type: 'complex',
        multiValued: true,
        subAttributes: [
          { name: 'value', type: 'string', mutability: 'immutable' },
          { name: 'display', type: 'string', mutability: 'readOnly' },
        ],
      },
    ].map((a) => attribute(a as Attribute)),
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${GROUP_SCHEMA}` },
  };
  return [user, group];
}

export const listResponse = (resources: unknown[], total = resources.length, startIndex = 1) => ({
  schemas: [LIST_SCHEMA],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
