import { screen, waitFor, within } from '@testing-library/react';
import type { UserImportJob, UserImportRow } from '@tc/contract/user-import';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { currentSearchParams, loadEnglish, renderWithProviders } from '../../../test/render';
import { seenRequests, server } from '../../../test/server';
import { accessToken, signedInEachTest } from '../../../test/session';
import UserImportPage from './user-import-page';

const API = '/api/v1.0/user-imports';
const ID = '00000000-0000-4000-8000-000000000042';

const job = (patch: Partial<UserImportJob> = {}): UserImportJob => ({
  id: ID,
  state: 'uploaded',
  columns: ['Vorname', 'Nachname', 'E-Mail', 'Rolle'],
  suggestedMapping: { firstName: 0, lastName: 1, email: 2, role: 3, status: null },
  mapping: null,
  sendInvitations: false,
  rowCount: 3,
  totals: { valid: 0, withErrors: 0, existing: 0 },
  progress: { done: 0, created: 0, skipped: 0, failed: 0 },
  createdAt: '2026-11-26T10:00:00.000Z',
  ...patch,
});

const row = (line: number, patch: Partial<UserImportRow> = {}): UserImportRow => ({
  line,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: `ada${line}@acme.test`,
  role: 'Member',
  status: 'valid',
  problems: [],
  ...patch,
});

const checked = job({
  state: 'checked',
  mapping: { firstName: 0, lastName: 1, email: 2, role: 3, status: null },
  totals: { valid: 1, withErrors: 2, existing: 0 },
});
const done = job({
  ...checked,
  state: 'done',
  progress: { done: 3, created: 1, skipped: 0, failed: 2 },
});

const rowsAnswer = (rows: UserImportRow[]) =>
  HttpResponse.json({ data: { data: rows, pageIndex: 1, pageSize: 25, totalCount: rows.length } });

describe('the user import wizard', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['userImport']));
  signedInEachTest({
    tokens: { access_token: accessToken({ permissions: ['users:write'] }), refresh_token: 'r' },
  });

  it('uploads the file, maps its columns, shows each row’s problems, applies, and offers the result', async () => {
    let current = job();
    server.use(
      http.post(API, () => HttpResponse.json({ data: current }, { status: 201 })),
      http.get(`${API}/${ID}`, () => HttpResponse.json({ data: current })),
      http.put(`${API}/${ID}/mapping`, () => {
        current = checked;
        return HttpResponse.json({ data: current });
      }),
      http.post(`${API}/${ID}/rows`, () =>
        rowsAnswer([
          row(2),
          row(3, {
            status: current.state === 'done' ? 'failed' : 'error',
            email: 'not-an-address',
            problems: [{ field: 'email', code: 'email.invalid' }],
          }),
          row(4, {
            status: 'error',
            role: 'Wizard',
            problems: [
              { field: 'role', code: 'user_import.role_unknown', params: { role: 'Wizard' } },
            ],
          }),
        ]),
      ),
      http.post(`${API}/${ID}/apply`, () => {
        current = done;
        return HttpResponse.json({ data: current });
      }),
    );
    const { user } = renderWithProviders(<UserImportPage />, { url: '/dashboard/users/import' });

    const file = new File(['Vorname,Nachname,E-Mail,Rolle\n'], 'people.csv', { type: '' });
    await user.upload(screen.getByLabelText('Choose CSV file'), file);
    expect(
      await screen.findByText('The file has 3 rows. Choose the column of each field.'),
    ).toBeVisible();
    expect(currentSearchParams()).toEqual({ job: ID });
    const upload = seenRequests().find((request) => request.path === API)!;
    expect(upload.headers.get('content-type')).toBe('text/csv');
    expect(screen.getByRole('combobox', { name: 'E-mail' })).toHaveTextContent('E-Mail');

    await user.click(
      screen.getByRole('checkbox', { name: 'Send each new user an invitation mail' }),
    );
    await user.click(screen.getByRole('button', { name: 'Check rows' }));
    expect(await screen.findByText('2 with errors')).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Rows of the file' });
    expect(await within(table).findByText('Enter a valid e-mail address.')).toBeVisible();
    expect(within(table).getByText('There is no role “Wizard”.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create the users?' });
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText('Created: 1. Skipped (already exist): 0. Failed: 2.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Download result (CSV)' })).toBeEnabled();
  });

  describe('the result file', () => {
    afterEach(() => vi.restoreAllMocks());

    it("is asked for in the console's language, which sets its separator, and saved as sent", async () => {
      const csv = '\uFEFFline,email\r\n2,ada2@acme.test\r\n';
      server.use(
        http.get(`${API}/${ID}`, () => HttpResponse.json({ data: done })),
        http.post(`${API}/${ID}/rows`, () => rowsAnswer([row(2)])),
        http.get(
          `${API}/${ID}/result`,
          () => new HttpResponse(csv, { headers: { 'content-type': 'text/csv; charset=utf-8' } }),
        ),
      );
      // jsdom has no blob URLs and does not download: record what would have been saved.
      let saved: Blob | undefined;
      URL.createObjectURL = vi.fn((blob: Blob) => {
        saved = blob;
        return 'blob:result';
      });
      URL.revokeObjectURL = vi.fn();
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
      const { user } = renderWithProviders(<UserImportPage />, {
        url: `/dashboard/users/import?job=${ID}`,
      });
      await user.click(await screen.findByRole('button', { name: 'Download result (CSV)' }));
      await waitFor(() => expect(saved).toBeDefined());
      const sent = seenRequests().find((request) => request.path === `${API}/${ID}/result`)!;
      expect(sent.headers.get('accept-language')).toBe('en');
      const bytes = [...new Uint8Array(await saved!.arrayBuffer())];
      expect(bytes).toEqual([...new TextEncoder().encode(csv)]);
    });
  });

  it('says what is wrong with a refused file, translated from its code', async () => {
    server.use(
      http.post(API, () =>
        HttpResponse.json(
          {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            detail: 'x',
            code: 'user_import.too_many_columns',
            params: { maximum: 50, line: 1 },
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderWithProviders(<UserImportPage />, { url: '/dashboard/users/import' });
    await user.upload(
      screen.getByLabelText('Choose CSV file'),
      new File(['a'], 'wide.csv', { type: 'text/csv' }),
    );
    expect(await screen.findByText('The file has more than 50 columns (line 1).')).toBeVisible();
    expect(currentSearchParams()).toEqual({});
  });

  it('shows an unknown import as an error with a way back', async () => {
    server.use(
      http.get(`${API}/${ID}`, () =>
        HttpResponse.json(
          {
            type: 'about:blank',
            title: 'Not Found',
            status: 404,
            detail: 'x',
            code: 'user_import.not_found',
          },
          { status: 404 },
        ),
      ),
    );
    const { user } = renderWithProviders(<UserImportPage />, {
      url: `/dashboard/users/import?job=${ID}`,
    });
    expect(await screen.findByText('This import does not exist.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(await screen.findByRole('button', { name: 'Choose CSV file' })).toBeVisible();
  });
});
