import type { Client } from '@tc/contract/clients';
import { http, HttpResponse } from 'msw';
import { accessToken } from './session';

export const CLIENTS = {
  page: '/api/v1.0/clients/page',
  create: '/api/v1.0/clients/create',
  update: '/api/v1.0/clients/update',
  remove: (id: string) => `/api/v1.0/clients/delete/${id}`,
  rotate: (id: string) => `/api/v1.0/clients/${id}/rotate-secret`,
  me: '/api/v1.0/auth/me',
};

export const clientRow = (index: number, patch: Partial<Client> = {}): Client => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  clientId: `app-${index}`,
  name: `App ${index}`,
  type: 'confidential',
  redirectUris: [`https://app${index}.example.com/callback`],
  postLogoutRedirectUris: [],
  webOrigins: [],
  grantTypes: ['authorization_code', 'refresh_token'],
  serviceRoleIds: [],
  idTokenSignedResponseAlg: 'RS256',
  builtIn: false,
  firstParty: false,
  consoleApiAccess: false,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  ...patch,
});

/** The console's own client, as every tenant has it. */
export const builtInClient = clientRow(1, {
  clientId: 'react-client',
  name: 'Tenant Console',
  type: 'public',
  redirectUris: [],
  grantTypes: ['authorization_code', 'refresh_token', 'password'],
  idTokenSignedResponseAlg: 'ES256',
  builtIn: true,
  firstParty: true,
  consoleApiAccess: true,
});

/** The page route over a list the test can change: it answers what `rows` holds now. */
export function clientsPage(rows: Client[]) {
  return http.post(CLIENTS.page, () =>
    HttpResponse.json({
      data: { data: rows, pageIndex: 1, pageSize: 10, totalCount: rows.length },
    }),
  );
}

/** The signed-in user as `GET /auth/me` answers, in the realm `demo`. */
export const meAnswer = http.get(CLIENTS.me, () =>
  HttpResponse.json({
    data: {
      id: '00000000-0000-4000-8000-000000000011',
      email: 'admin@demo.localhost',
      firstName: 'Ada',
      lastName: 'Admin',
      tenantId: '00000000-0000-4000-8000-000000000001',
      realm: 'demo',
      roles: ['Admin'],
      permissions: ['clients:read', 'clients:write'],
      superAdmin: false,
    },
  }),
);

/** Tokens of an administrator who may read and change applications. */
export const clientAdminTokens = {
  access_token: accessToken({ permissions: ['clients:read', 'clients:write', 'roles:read'] }),
  refresh_token: 'r',
};
