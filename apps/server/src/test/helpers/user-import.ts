import { expect } from 'vitest';
import type { Page } from '@tc/contract/paging';
import type { UserImportJob, UserImportRow } from '@tc/contract/user-import';
import { api } from '../fixtures';
import type { TestServer } from '../harness';

/** Test helpers of the user-import tests: the steps over HTTP, as the console takes them. */

export const MAPPING = { firstName: 0, lastName: 1, email: 2, role: 3, status: 4 };
export const HEADER = 'first name,last name,e-mail,role,status';

export function upload(
  server: TestServer,
  token: string,
  body: string | Uint8Array,
  type = 'text/csv',
) {
  return api(server, '/user-imports', token, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]),
    headers: { 'content-type': type },
  });
}

export async function uploaded(server: TestServer, token: string, csv: string) {
  const response = await upload(server, token, csv);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { data: UserImportJob }).data;
}

export async function problemOf(response: Response) {
  return (await response.json()) as {
    code: string;
    params?: Record<string, unknown>;
    fields?: Record<string, { code: string }>;
  };
}

export async function call<T>(
  server: TestServer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await api(server, path, token, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, data: (text ? JSON.parse(text) : {}) as { data: T } };
}

export async function mapped(
  server: TestServer,
  token: string,
  id: string,
  sendInvitations = false,
  mapping: Record<string, number | null> = MAPPING,
) {
  const answer = await call<UserImportJob>(server, token, 'PUT', `/user-imports/${id}/mapping`, {
    mapping,
    sendInvitations,
  });
  expect(answer.status, JSON.stringify(answer.data)).toBe(200);
  return answer.data.data;
}

export async function applied(server: TestServer, token: string, id: string) {
  const answer = await call<UserImportJob>(server, token, 'POST', `/user-imports/${id}/apply`);
  expect(answer.status, JSON.stringify(answer.data)).toBe(200);
  return answer.data.data;
}

export async function rowsOf(
  server: TestServer,
  token: string,
  id: string,
  filter: Record<string, string> = {},
) {
  const answer = await call<Page<UserImportRow>>(
    server,
    token,
    'POST',
    `/user-imports/${id}/rows`,
    {
      pageSize: 100,
      filter,
    },
  );
  expect(answer.status).toBe(200);
  return answer.data.data;
}
