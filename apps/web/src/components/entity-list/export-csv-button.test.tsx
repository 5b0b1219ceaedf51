import type { GridColDef } from '@mui/x-data-grid';
import type { Role } from '@tc/contract/roles';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { problemResponse } from '../../test/problems';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { role, rolesPage } from '../../test/roles-harness';
import { seenRequests, server } from '../../test/server';
import { accessToken, signedInEachTest } from '../../test/session';
import { Notifications } from '../notifications';
import { ListPage } from './list-page';

const EXPORT_PATH = '/api/v1.0/roles/export';
const columns: GridColDef<Role>[] = [{ field: 'name', headerName: 'Name', flex: 1 }];

function ExportingList() {
  return (
    <>
      <ListPage<Role>
        entity="roles"
        ns="roles"
        columns={columns}
        rowName={(row) => row.name}
        csvExport={{ path: '/roles/export', fileName: 'roles.csv' }}
      />
      <Notifications />
    </>
  );
}

/** What the page saved: the blob handed to a blob URL and the name of the clicked link. */
let saved: { blob?: Blob; name?: string; href?: string };

describe('Export CSV on the list page', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['roles']));
  signedInEachTest({
    tokens: { access_token: accessToken({ permissions: ['roles:read'] }), refresh_token: 'r' },
  });
  beforeEach(() => {
    saved = {};
    // jsdom has no blob URLs and does not download: record what would have been saved.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.blob = blob;
      return 'blob:export';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.name = this.download;
      saved.href = this.getAttribute('href') ?? undefined;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it("posts the list's search and sort with the token, no paging, and saves the answer", async () => {
    server.use(
      rolesPage([role(1, { name: 'Ops' })]),
      http.post(
        EXPORT_PATH,
        () =>
          new HttpResponse('\uFEFFName\r\nOps\r\n', {
            headers: {
              'content-type': 'text/csv; charset=utf-8',
              'content-disposition': 'attachment; filename="roles-2026-11-26.csv"',
            },
          }),
      ),
    );
    const { user } = renderWithProviders(<ExportingList />, {
      url: '/roles?sort=status.desc&q=ops&page=2&size=25',
    });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved.name).toBe('roles-2026-11-26.csv'));
    const sent = seenRequests().find((request) => request.path === EXPORT_PATH)!;
    expect(sent.method).toBe('POST');
    expect(sent.headers.get('authorization')).toMatch(/^Bearer /);
    expect(sent.headers.get('accept-language')).toBe('en');
    expect(await sent.request.clone().json()).toEqual({
      filter: { search: 'ops' },
      listSort: { field: 'status', direction: 1 },
    });
    expect(saved.href).toBe('blob:export');
    // The bytes as sent, byte order mark included (text() would drop it).
    const bytes = new Uint8Array(await saved.blob!.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await saved.blob!.text()).toBe('Name\r\nOps\r\n');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('is busy while the file downloads, and names the file from the prop without a header', async () => {
    let finish: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      finish = resolve;
    });
    server.use(
      rolesPage([role(1)]),
      http.post(EXPORT_PATH, async () => {
        await answered;
        return new HttpResponse('Name\r\n', { headers: { 'content-type': 'text/csv' } });
      }),
    );
    const { user } = renderWithProviders(<ExportingList />, { url: '/roles' });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    const busy = await screen.findByRole('button', { name: 'Exporting...' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    finish();
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeEnabled();
    expect(saved.name).toBe('roles.csv');
  });

  it("tells of a failure with the server's reason and saves nothing", async () => {
    server.use(
      rolesPage([role(1)]),
      http.post(EXPORT_PATH, () => problemResponse(403, 'auth.forbidden')),
    );
    const { user } = renderWithProviders(<ExportingList />, { url: '/roles' });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('status')).toHaveTextContent(/^The export failed: /);
    expect(saved.name).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });
});
