import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  builtInClient,
  clientAdminTokens,
  clientRow,
  clientsPage,
  CLIENTS,
} from '../../test/clients-harness';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { bodiesSentTo, seenRequests, server } from '../../test/server';
import { accessToken, signedInEachTest } from '../../test/session';
import ClientsPage from './components/clients-page';

const grid = () => screen.getByRole('grid', { name: 'Applications' });
const sentTo = (path: string) => seenRequests().filter((entry) => entry.path === path);

async function openMenu(name: string) {
  const view = renderWithProviders(<ClientsPage />, { url: '/dashboard/clients' });
  await view.user.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  return view;
}

// The data grid renders slowly on a loaded runner; a test normally takes a second or two.
describe('Applications list', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['clients']));

  describe('as an administrator', () => {
    signedInEachTest({ tokens: clientAdminTokens });

    it('lists name, client ID, type, grant types and creation date, the built-in one marked', async () => {
      server.use(clientsPage([builtInClient, clientRow(2, { name: 'Billing' })]));
      renderWithProviders(<ClientsPage />, { url: '/dashboard/clients' });
      const billing = (await within(grid()).findByText('Billing')).closest('[role="row"]')!;
      const cells = within(billing as HTMLElement).getAllByRole('gridcell');
      expect(cells.map((cell) => cell.textContent)).toEqual([
        '2',
        'Billing',
        'app-2',
        'Confidential',
        'authorization_code, refresh_token',
        'Jan 2, 2026',
        '',
      ]);
      const console = within(grid()).getByText('Tenant Console').closest('[role="row"]')!;
      expect(within(console as HTMLElement).getByText('Built-in')).toBeVisible();
      expect(within(console as HTMLElement).getByText('Public')).toBeVisible();
      expect(within(billing as HTMLElement).queryByText('Built-in')).toBeNull();
      expect(await bodiesSentTo(CLIENTS.page)).toEqual([
        { pageIndex: 1, pageSize: 10, filter: {}, listSort: { field: 'name', direction: 0 } },
      ]);
    });

    it('shows the empty state with the first-add action', async () => {
      server.use(clientsPage([]));
      const { user } = renderWithProviders(<ClientsPage />, { url: '/dashboard/clients' });
      await user.click(await screen.findByRole('button', { name: 'Add your first application' }));
      expect(screen.getByRole('dialog', { name: 'Add application' })).toBeVisible();
    });

    it('offers no Delete for the built-in application', async () => {
      server.use(clientsPage([builtInClient, clientRow(2)]));
      await openMenu('Tenant Console');
      const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
      expect(items).toEqual(['View', 'Edit']);
    });

    it('delete asks first, sends nothing until confirmed, then deletes and refreshes', async () => {
      const billing = clientRow(2, { name: 'Billing' });
      const rows = [builtInClient, billing];
      server.use(
        clientsPage(rows),
        http.post(CLIENTS.remove(billing.id), () => {
          rows.splice(rows.indexOf(billing), 1);
          return HttpResponse.json({ data: { id: billing.id } });
        }),
      );
      const { user } = await openMenu('Billing');
      await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
      const dialog = screen.getByRole('dialog', { name: 'Delete application' });
      expect(dialog).toHaveTextContent(
        'Are you sure you want to delete the application "Billing"?',
      );
      expect(sentTo(CLIENTS.remove(billing.id))).toHaveLength(0);

      await user.click(within(dialog).getByRole('button', { name: 'Delete application' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(sentTo(CLIENTS.remove(billing.id))).toHaveLength(1);
      await waitFor(() => expect(within(grid()).queryByText('Billing')).toBeNull());
    });

    it('cancelling a delete sends nothing', async () => {
      server.use(clientsPage([clientRow(2, { name: 'Billing' })]));
      const { user } = await openMenu('Billing');
      await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
      const dialog = screen.getByRole('dialog', { name: 'Delete application' });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(seenRequests().filter(({ path }) => path.includes('/delete/'))).toHaveLength(0);
    });
  });

  describe('as a reader', () => {
    signedInEachTest({
      tokens: { access_token: accessToken({ permissions: ['clients:read'] }), refresh_token: 'r' },
    });

    it('offers viewing only: no Add, no Edit, no Delete', async () => {
      server.use(clientsPage([clientRow(2, { name: 'Billing' })]));
      await openMenu('Billing');
      expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['View']);
      expect(screen.queryByRole('button', { name: 'Add application' })).toBeNull();
    });
  });
});
