import { expect } from 'vitest';
import { API, call, junkBody } from './secret-route-cases';
import type { Case } from './secret-route-areas';

/**
 * The audit log's CSV export, driven with every known secret: a file of the tenant's entries,
 * and a refused junk body.
 */
export const auditExportCases: Case[] = [
  [
    `POST ${API}/audit/export`,
    async (d) => {
      const path = `${API}/audit/export`;
      const body = { filter: { from: '2000-01-01T00:00:00Z' }, listSort: { field: 'createdAt' } };
      const answer = await call(d, 'POST', path, { body });
      expect(answer.status, answer.text).toBe(200);
      const junk = await call(d, 'POST', path, { body: junkBody(d) });
      expect(junk.status, `POST ${path} with junk`).toBe(400);
    },
  ],
];
