import { expect } from 'vitest';
import { API, call } from './secret-route-cases';
import type { Case } from './secret-route-areas';

/** The exports answer files of names and e-mails; a bad body is a problem like the lists'. */
export const csvExportCases: Case[] = (['users', 'projects'] as const).map((list) => [
  `POST ${API}/${list}/export`,
  async (d) => {
    const answer = await call(d, 'POST', `${API}/${list}/export`, {
      body: { filter: { search: 'a' }, listSort: { field: 'name', direction: 1 } },
    });
    // By name is a projects sort only.
    expect(answer.status, answer.text).toBe(list === 'projects' ? 200 : 400);
    const file = await call(d, 'POST', `${API}/${list}/export`, { body: {} });
    expect(file.status, file.text).toBe(200);
    expect(file.text).toContain('Created');
  },
]);
