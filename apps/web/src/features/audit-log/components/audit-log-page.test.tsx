import { screen, waitFor, within } from '@testing-library/react';
import type { AuditEntry } from '@tc/contract/audit';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentSearchParams, loadEnglish, renderWithProviders } from '../../../test/render';
import { bodiesSentTo, server } from '../../../test/server';
import { accessToken, signedInEachTest } from '../../../test/session';
import AuditLogPage from './audit-log-page';

const PAGE_PATH = '/api/v1.0/audit/page';
const USERS_PATH = '/api/v1.0/users/page';
const ANN = '00000000-0000-4000-8000-0000000000a1';

const entry = (index: number, patch: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  actorId: ANN,
  actorEmail: 'ann@acme.test',
  action: 'update',
  entity: 'projects',
  entityId: `project-${index}`,
  before: { name: 'Apollo', budget: 10, owner: { id: 'o1', name: 'Ann' }, country: 'CH' },
  after: { name: 'Artemis', budget: 10, owner: { id: 'o2', name: 'Bo' }, country: 'CH' },
  createdAt: '2026-11-20T09:30:00.000Z',
  ...patch,
});

const answering = (rows: AuditEntry[]) =>
  http.post(PAGE_PATH, () =>
    HttpResponse.json({
      data: { data: rows, pageIndex: 1, pageSize: 10, totalCount: rows.length },
    }),
  );

const users = http.post(USERS_PATH, () =>
  HttpResponse.json({
    data: {
      data: [{ id: ANN, email: 'ann@acme.test', firstName: 'Ann', lastName: 'Lee' }],
      pageIndex: 1,
      pageSize: 20,
      totalCount: 1,
    },
  }),
);

const grid = () => screen.getByRole('grid', { name: 'Audit log' });
const lastBody = async () => (await bodiesSentTo(PAGE_PATH)).at(-1);

describe('the audit log screen', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['auditLog']));
  signedInEachTest({
    tokens: {
      access_token: accessToken({ permissions: ['audit:read', 'users:read'] }),
      refresh_token: 'r',
    },
  });

  it('lists time, actor, entity, action and entity id, newest first, with nothing to edit', async () => {
    server.use(answering([entry(1), entry(2, { actorId: null, actorEmail: null })]));
    renderWithProviders(<AuditLogPage />, { url: '/audit-log' });
    const row = (await within(grid()).findByText('project-1')).closest('[role="row"]');
    const cells = within(row as HTMLElement);
    expect(cells.getByText('ann@acme.test')).toBeInTheDocument();
    expect(cells.getByText('Projects')).toBeInTheDocument();
    expect(cells.getByText('Update')).toBeInTheDocument();
    const system = within(grid()).getByText('project-2').closest('[role="row"]');
    expect(within(system as HTMLElement).getByText('System')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /add/i })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
    expect(await lastBody()).toEqual({
      pageIndex: 1,
      pageSize: 10,
      filter: {},
      listSort: { field: 'createdAt', direction: 1 },
    });
  });

  it('sends the actor, entity, action and date range it is filtered by, on page 1', async () => {
    server.use(answering([entry(1)]), users);
    const { user } = renderWithProviders(<AuditLogPage />, { url: '/audit-log?page=2' });
    await within(grid()).findByText('project-1');

    await user.click(screen.getByRole('combobox', { name: 'Entity' }));
    await user.click(await screen.findByRole('option', { name: 'Applications' }));
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Delete' }));
    await user.type(screen.getByLabelText('From'), '2026-03-01');
    await user.type(screen.getByLabelText('To (inclusive)'), '2026-03-31');
    await user.click(screen.getByRole('combobox', { name: 'Actor' }));
    await user.click(await screen.findByRole('option', { name: /ann@acme\.test/ }));

    // The "to" day is included: the server's exclusive end is the start of the next day.
    const from = new Date('2026-03-01T00:00:00').toISOString();
    const to = new Date('2026-04-01T00:00:00').toISOString();
    await waitFor(async () =>
      expect(await lastBody()).toEqual({
        pageIndex: 1,
        pageSize: 10,
        filter: { entity: 'clients', action: 'delete', from, to, actorId: ANN },
        listSort: { field: 'createdAt', direction: 1 },
      }),
    );
    expect(currentSearchParams()).toEqual({
      entity: 'clients',
      action: 'delete',
      fromDate: '2026-03-01',
      toDate: '2026-03-31',
      actorId: ANN,
    });
  });

  it('says when the range ends before it starts, and does not send it', async () => {
    server.use(answering([entry(1)]));
    renderWithProviders(<AuditLogPage />, {
      url: '/audit-log?fromDate=2026-03-10&toDate=2026-03-01&action=create',
    });
    await within(grid()).findByText('project-1');
    expect(screen.getByText('Choose a day on or after the start.')).toBeVisible();
    expect(await lastBody()).toMatchObject({ filter: { action: 'create' } });
    expect((await lastBody()) as { filter: object }).not.toHaveProperty('filter.from');
  });

  it('opens an entry on click: its fields, the changed ones as a diff, the unchanged folded away; Escape closes it', async () => {
    server.use(answering([entry(1)]));
    const { user } = renderWithProviders(<AuditLogPage />, { url: '/audit-log' });
    await user.click(await within(grid()).findByText('project-1'));

    const drawer = await screen.findByRole('dialog', { name: 'Audit entry' });
    const details = within(drawer);
    expect(details.getByText('project-1')).toBeInTheDocument();
    expect(details.getByText('ann@acme.test')).toBeInTheDocument();
    const changed = details.getByRole('table', { name: 'Changed fields' });
    const rows = within(changed).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'nameApolloArtemis',
      'owner{"id":"o1","name":"Ann"}{"id":"o2","name":"Bo"}',
    ]);
    expect(details.queryByRole('table', { name: 'Unchanged fields' })).toBeNull();
    const toggle = details.getByRole('button', { name: 'Show 2 unchanged fields' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const unchanged = details.getByRole('table', { name: 'Unchanged fields' });
    expect(within(unchanged).getByText('budget')).toBeInTheDocument();
    expect(within(unchanged).getByText('CH')).toBeInTheDocument();
    expect(details.getByRole('button', { name: 'Hide 2 unchanged fields' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens a created entry with Enter on its row, showing only the values it was created with', async () => {
    server.use(
      answering([
        entry(3, { action: 'create', before: null, after: { name: 'Gemini', tags: ['a', 'b'] } }),
      ]),
    );
    const { user } = renderWithProviders(<AuditLogPage />, { url: '/audit-log' });
    const cell = (await within(grid()).findByText('project-3')).closest('[role="gridcell"]');
    (cell as HTMLElement).focus();
    await user.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: 'Audit entry' });
    const table = within(drawer).getByRole('table', { name: 'Created with' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Field', 'After']);
    expect(within(table).getByText('["a","b"]')).toBeInTheDocument();
    expect(within(drawer).queryByText('Before')).toBeNull();
    expect(drawer).toContainElement(document.activeElement as HTMLElement);
    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The focus goes back to where the entry was opened from.
    expect(cell).toHaveFocus();
  });

  it('shows a deleted entry with the values it had before', async () => {
    server.use(answering([entry(4, { action: 'delete', before: { name: 'Old' }, after: null })]));
    const { user } = renderWithProviders(<AuditLogPage />, { url: '/audit-log' });
    await user.click(await within(grid()).findByText('project-4'));
    const drawer = await screen.findByRole('dialog', { name: 'Audit entry' });
    const table = within(drawer).getByRole('table', { name: 'Deleted with' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('nameOld');
    expect(within(drawer).queryByText('After')).toBeNull();
  });

  it('says there are no entries yet when the log is empty', async () => {
    server.use(answering([]));
    renderWithProviders(<AuditLogPage />, { url: '/audit-log' });
    expect(await screen.findByRole('heading', { name: 'No entries yet' })).toBeVisible();
  });

  it('says why the list could not be loaded, with a retry', async () => {
    server.use(
      http.post(PAGE_PATH, () =>
        HttpResponse.json(
          { status: 403, title: 'Forbidden', code: 'auth.forbidden', detail: 'No.' },
          { status: 403, headers: { 'content-type': 'application/problem+json' } },
        ),
      ),
    );
    renderWithProviders(<AuditLogPage />, { url: '/audit-log' });
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('You do not have permission to do this.');
  });
});
