import { act, screen, waitFor, within } from '@testing-library/react';
import { delay, http } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { problemResponse } from '../../test/problems';
import { currentSearchParams, loadEnglish, renderWithProviders } from '../../test/render';
import { PAGE_PATH, pageAnswer, role, rolesPage, RolesList } from '../../test/roles-harness';
import { bodiesSentTo, server } from '../../test/server';
import { accessToken, signedInEachTest } from '../../test/session';

const grid = () => screen.getByRole('grid', { name: 'Roles' });
const lastPageRequest = async () => (await bodiesSentTo(PAGE_PATH)).at(-1);

// The data grid renders slowly on a loaded runner; a test normally takes a second or two.
describe('ListPage', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['roles']));
  signedInEachTest({
    tokens: { access_token: accessToken({ permissions: ['roles:write'] }), refresh_token: 'r' },
  });

  it("shows the server's page: its rows, numbered by position, first page by the default sort", async () => {
    server.use(rolesPage([role(1, { name: 'Admin' }), role(2, { name: 'Member' })]));
    renderWithProviders(<RolesList />, { url: '/roles' });
    expect(await within(grid()).findByText('Admin')).toBeInTheDocument();
    const rows = within(grid()).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('gridcell')[0]?.textContent)).toEqual([
      '1',
      '2',
    ]);
    expect(await lastPageRequest()).toEqual({
      pageIndex: 1,
      pageSize: 10,
      filter: {},
      listSort: { field: 'name', direction: 0 },
    });
  });

  it('asks the server for what the address holds: page, size, sort and search', async () => {
    server.use(rolesPage([role(26)], 30));
    renderWithProviders(<RolesList />, { url: '/roles?page=2&size=25&sort=status.desc&q=ops' });
    // Rows of page 2 at 25 a page start at 26.
    expect(await within(grid()).findByText('26')).toBeInTheDocument();
    expect(await lastPageRequest()).toEqual({
      pageIndex: 2,
      pageSize: 25,
      filter: { search: 'ops' },
      listSort: { field: 'status', direction: 1 },
    });
    expect(screen.getByRole('searchbox', { name: 'Search roles' })).toHaveValue('ops');
  });

  it('shows the empty state, with the first-add action, when the server has no rows', async () => {
    server.use(rolesPage([]));
    const { user } = renderWithProviders(<RolesList />, { url: '/roles' });
    expect(await screen.findByRole('heading', { name: 'Start adding Roles' })).toBeVisible();
    expect(screen.queryByRole('grid')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add your first role' }));
    expect(screen.getByRole('dialog', { name: 'Add new role' })).toBeVisible();
  });

  it('while the next page loads, keeps the rows shown under a progress bar, the grid busy', async () => {
    server.use(
      http.post(PAGE_PATH, async ({ request }) => {
        const { pageIndex } = (await request.json()) as { pageIndex: number };
        if (pageIndex > 1) await delay('infinite');
        return pageAnswer([role(1)], { totalCount: 25 });
      }),
    );
    const { user } = renderWithProviders(<RolesList />, { url: '/roles' });
    await within(grid()).findByText('Role 1');
    expect(within(grid()).queryByRole('progressbar', { hidden: true })).toBeNull();
    const gridRoot = () => grid().closest('[aria-busy]');
    expect(gridRoot()).not.toHaveAttribute('aria-busy', 'true');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    // The bar is seen, not read: inside a grid only rows may be, so what holds the grid is busy.
    expect(await within(grid()).findByRole('progressbar', { hidden: true })).toBeVisible();
    expect(within(grid()).queryByRole('progressbar')).toBeNull();
    expect(gridRoot()).toHaveAttribute('aria-busy', 'true');
    expect(within(grid()).getByText('Role 1')).toBeInTheDocument();
  });

  it('while the first page loads, shows neither rows nor the empty state', async () => {
    server.use(http.post(PAGE_PATH, () => delay('infinite')));
    renderWithProviders(<RolesList />, { url: '/roles' });
    await waitFor(async () => expect(await bodiesSentTo(PAGE_PATH)).toHaveLength(1));
    expect(within(grid()).getAllByRole('row')).toHaveLength(1);
    expect(screen.queryByRole('heading', { name: 'Start adding Roles' })).toBeNull();
  });

  it("shows a failed load as the server's words, and Retry asks again", async () => {
    server.use(
      http.post(PAGE_PATH, () => problemResponse(503, 'service.database_unreachable'), {
        once: true,
      }),
      rolesPage([role(1, { name: 'Admin' })]),
    );
    const { user } = renderWithProviders(<RolesList />, { url: '/roles' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The list could not be loaded: The database is not reachable.');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(grid()).findByText('Admin')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('sorting by a column asks the server for that order and keeps it in the address', async () => {
    server.use(rolesPage([role(1), role(2)]));
    const { user } = renderWithProviders(<RolesList />, { url: '/roles?page=2' });
    await within(grid()).findByText('Role 1');
    // Already by name ascending (the default): one click turns it to descending.
    await user.click(within(grid()).getByRole('columnheader', { name: /Name/ }));
    await waitFor(async () =>
      expect(await lastPageRequest()).toMatchObject({
        pageIndex: 1,
        listSort: { field: 'name', direction: 1 },
      }),
    );
    expect(currentSearchParams()).toEqual({ sort: 'name.desc' });
  });

  it('paging asks the server for the next page and keeps it in the address', async () => {
    server.use(rolesPage([role(1), role(2)], 25));
    const { user } = renderWithProviders(<RolesList />, { url: '/roles' });
    await within(grid()).findByText('Role 1');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(async () => expect(await lastPageRequest()).toMatchObject({ pageIndex: 2 }));
    expect(currentSearchParams()).toEqual({ page: '2' });
    // The position column counts on from the previous page.
    expect(await within(grid()).findByText('11')).toBeInTheDocument();
  });

  it('searching waits for a pause, then asks from page 1 and keeps the words in the address', async () => {
    server.use(rolesPage([role(1)], 25));
    const { user } = renderWithProviders(<RolesList />, { url: '/roles?page=3' });
    await within(grid()).findByText('Role 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search roles' }), ' adm ');
    await waitFor(async () =>
      expect(await lastPageRequest()).toMatchObject({ pageIndex: 1, filter: { search: 'adm' } }),
    );
    expect(currentSearchParams()).toEqual({ q: 'adm' });
    // One request for the typed words, none for each key.
    const searches = (await bodiesSentTo(PAGE_PATH)).filter(
      (body) => Object.keys((body as { filter: object }).filter).length > 0,
    );
    expect(searches).toHaveLength(1);
  });

  it('an estimated total reads "more than 10,000", an exact one its number', async () => {
    let estimate = true;
    server.use(
      http.post(PAGE_PATH, () =>
        pageAnswer([role(1)], {
          totalCount: estimate ? 10_000 : 9_876,
          ...(estimate ? { totalCountIsEstimate: true } : {}),
        }),
      ),
    );
    const { client } = renderWithProviders(<RolesList />, { url: '/roles?q=a' });
    expect(await screen.findByText('1–10 of more than 10,000')).toBeVisible();
    expect(screen.queryByText('1–10 of 10,000')).toBeNull();
    // Paging on stays possible: the capped count is still the grid's row count.
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeEnabled();
    try {
      await act(() => i18n.changeLanguage('de'));
      expect(await screen.findByText('1–10 von mehr als 10.000')).toBeVisible();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }

    estimate = false;
    await client.invalidateQueries();
    expect(await screen.findByText('1–10 of 9,876')).toBeVisible();
  });
});
