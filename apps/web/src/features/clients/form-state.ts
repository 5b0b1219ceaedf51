import {
  clientCreateSchema,
  clientUpdateSchema,
  GRANT_TYPES,
  type Client,
  type ClientType,
  type GrantType,
  type IdTokenAlgorithm,
} from '@tc/contract/clients';
import type { CodedProblem } from '@tc/contract/problem-codes';
import type { FieldError } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../lib/api-client';
import { decodeFieldProblem } from '../../lib/problem-text';

/**
 * Between the client as the API has it and the form's shape: each address list is edited as
 * text, one address a line, so a list can be pasted whole; the grants offered depend on the
 * type, and service roles on the client_credentials grant.
 */
export const URI_FIELDS = ['redirectUris', 'postLogoutRedirectUris', 'webOrigins'] as const;
export type UriField = (typeof URI_FIELDS)[number];

export interface ClientForm {
  id?: string;
  name: string;
  clientId: string;
  type: ClientType;
  redirectUris: string;
  postLogoutRedirectUris: string;
  webOrigins: string;
  grantTypes: GrantType[];
  serviceRoleIds: string[];
  idTokenSignedResponseAlg: IdTokenAlgorithm;
  firstParty: boolean;
  consoleApiAccess: boolean;
}

/**
 * A new application starts as a server-side web application (confidential, sign-in with a
 * code and staying signed in), the case the quick start's openid-client code is for.
 */
export function clientDefaults(row?: Client): ClientForm {
  return {
    ...(row ? { id: row.id } : {}),
    name: row?.name ?? '',
    clientId: row?.clientId ?? '',
    type: row?.type ?? 'confidential',
    redirectUris: (row?.redirectUris ?? []).join('\n'),
    postLogoutRedirectUris: (row?.postLogoutRedirectUris ?? []).join('\n'),
    webOrigins: (row?.webOrigins ?? []).join('\n'),
    grantTypes: row?.grantTypes ?? ['authorization_code', 'refresh_token'],
    serviceRoleIds: row?.serviceRoleIds ?? [],
    idTokenSignedResponseAlg: row?.idTokenSignedResponseAlg ?? 'RS256',
    firstParty: row?.firstParty ?? false,
    consoleApiAccess: row?.consoleApiAccess ?? false,
  };
}

/** client_credentials authenticates the client itself: only one that keeps a secret may use it. */
export const offeredGrants = (type: ClientType): GrantType[] =>
  GRANT_TYPES.filter((grant) => grant !== 'client_credentials' || type === 'confidential');

/** The grants in the contract's order, whatever order they were ticked in. */
export const sortGrants = (grants: readonly GrantType[]): GrantType[] =>
  GRANT_TYPES.filter((grant) => grants.includes(grant));

/** The addresses of a list field with the line each stands on (1-based); blank lines skipped. */
export function uriLines(text: string): { value: string; line: number }[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((raw, index) => ({ value: raw.trim(), line: index + 1 }))
    .filter((entry) => entry.value !== '');
}

/**
 * The payload the form stands for. A grant the type does not offer, or service roles while
 * client_credentials is not ticked, are not shown, so they are not sent either; they stay in
 * the form, so switching back shows them again.
 */
export function toPayload(form: ClientForm) {
  const offered = offeredGrants(form.type);
  const grantTypes = sortGrants(form.grantTypes.filter((grant) => offered.includes(grant)));
  return {
    ...form,
    redirectUris: uriLines(form.redirectUris).map((entry) => entry.value),
    postLogoutRedirectUris: uriLines(form.postLogoutRedirectUris).map((entry) => entry.value),
    webOrigins: uriLines(form.webOrigins).map((entry) => entry.value),
    grantTypes,
    serviceRoleIds: grantTypes.includes('client_credentials') ? form.serviceRoleIds : [],
  };
}

/** The contract's schema (create for add, update otherwise) behind the form's mapping. */
export function clientFormSchema(mode: 'add' | 'edit') {
  const contract = mode === 'add' ? clientCreateSchema : clientUpdateSchema;
  return z.preprocess((form: ClientForm) => toPayload(form), contract);
}

/** One message of a list field: the code as the form keeps it, and the line it is about. */
export interface ListProblem {
  message: string;
  line?: number;
}

const sameAddress = (line: string, item: string) =>
  line === item || URL.parse(line)?.origin === item;

/**
 * The messages of a list field. The form's own validation reports item N of the sent list
 * under `field.N` (the Nth address line); a server problem about an item arrives folded onto
 * the field with the refused address as its `item` parameter (foldItemProblems). Both are
 * shown with their line, so a problem is found in a long list.
 */
export function listProblems(error: FieldError | undefined, text: string): ListProblem[] {
  if (!error) return [];
  const lines = uriLines(text);
  const problems: ListProblem[] = [];
  if (typeof error.message === 'string' && error.message) {
    const item = decodeFieldProblem(error.message)?.params?.item;
    const line =
      typeof item === 'string' ? lines.find((entry) => sameAddress(entry.value, item)) : undefined;
    problems.push({ message: error.message, line: line?.line });
  }
  for (const [key, entry] of Object.entries(error)) {
    const message = (entry as FieldError | undefined)?.message;
    if (!/^\d+$/.test(key) || typeof message !== 'string') continue;
    problems.push({ message, line: lines[Number(key)]?.line });
  }
  return problems;
}

const LIST_FIELDS: readonly string[] = [...URI_FIELDS, 'grantTypes', 'serviceRoleIds'];

/**
 * A server answer naming an item of a list (`redirectUris.1`) put on the list's own field,
 * which is what the form has; an address keeps the refused value, so the field can say which
 * line it is. Only the first problem of a list is kept: a field shows one server message.
 */
export function foldItemProblems(error: unknown, sent: object | undefined): unknown {
  if (!(error instanceof ApiError) || !error.problem?.fields) return error;
  const fields: Record<string, CodedProblem> = {};
  for (const [path, problem] of Object.entries(error.problem.fields)) {
    const [field = '', index, ...rest] = path.split('.');
    const isItem = index !== undefined && /^\d+$/.test(index) && rest.length === 0;
    if (!isItem || !LIST_FIELDS.includes(field)) {
      fields[path] = problem;
      continue;
    }
    if (fields[field]) continue;
    const item = (sent as Record<string, unknown[] | undefined> | undefined)?.[field]?.[
      Number(index)
    ];
    const isUri = (URI_FIELDS as readonly string[]).includes(field);
    fields[field] =
      isUri && typeof item === 'string'
        ? { ...problem, params: { ...problem.params, item } }
        : problem;
  }
  return new ApiError(error.status, error.message, { ...error.problem, fields }, error.retryAfter);
}
