import { expect } from 'vitest';
import { API, call } from './secret-route-cases';
import type { Case } from './secret-route-areas';

const csv = (d: { tenant: { domain: string } }) =>
  `first name,last name,e-mail,role\nLog,Ged,logged-import@${d.tenant.domain},Member\n`;
const csvHeaders = { 'content-type': 'text/csv' };

/**
 * Importing users from CSV: the raw upload, the JSON steps and the result file. A refused
 * upload (not UTF-8) is driven too, since its error path is where a body could be logged.
 */
export const userImportCases: Case[] = [
  [
    `POST ${API}/user-imports`,
    async (d) => {
      const answer = await call(d, 'POST', `${API}/user-imports`, {
        body: csv(d),
        headers: csvHeaders,
      });
      expect(answer.status, answer.text).toBe(201);
      d.ids.userImport = (JSON.parse(answer.text) as { data: { id: string } }).data.id;
      const latin1 = Buffer.from('first name,last name\nRen\u00e9,X\n', 'latin1');
      const refused = await call(d, 'POST', `${API}/user-imports`, {
        body: latin1,
        headers: csvHeaders,
      });
      expect(refused.status, refused.text).toBe(400);
    },
  ],
  [
    `GET ${API}/user-imports/:id`,
    async (d) => {
      const answer = await call(d, 'GET', `${API}/user-imports/${d.ids.userImport}`);
      expect(answer.status, answer.text).toBe(200);
      expect((await call(d, 'GET', `${API}/user-imports/not-an-id`)).status).toBe(400);
    },
  ],
  [
    `PUT ${API}/user-imports/:id/mapping`,
    async (d) => {
      const answer = await call(d, 'PUT', `${API}/user-imports/${d.ids.userImport}/mapping`, {
        body: { mapping: { firstName: 0, lastName: 1, email: 2, role: 3 }, sendInvitations: true },
      });
      expect(answer.status, answer.text).toBe(200);
    },
  ],
  [
    `POST ${API}/user-imports/:id/rows`,
    async (d) => {
      const answer = await call(d, 'POST', `${API}/user-imports/${d.ids.userImport}/rows`, {
        body: { filter: { status: 'valid' } },
      });
      expect(answer.status, answer.text).toBe(200);
    },
  ],
  [
    `POST ${API}/user-imports/:id/apply`,
    async (d) => {
      // The invitation mail queued here carries a link token: no log line may hold it.
      const answer = await call(d, 'POST', `${API}/user-imports/${d.ids.userImport}/apply`);
      expect(answer.status, answer.text).toBe(200);
    },
  ],
  [
    `GET ${API}/user-imports/:id/result`,
    async (d) => {
      const answer = await call(d, 'GET', `${API}/user-imports/${d.ids.userImport}/result`);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.text).toContain('created');
    },
  ],
];
