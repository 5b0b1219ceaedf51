import { screen, waitFor, within } from '@testing-library/react';
import type { Webhook, WebhookDelivery } from '@tc/contract/webhooks';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEnglish, renderWithProviders } from '../../../test/render';
import { bodiesSentTo, seenRequests, server } from '../../../test/server';
import { accessToken, signedInEachTest } from '../../../test/session';
import WebhooksPage from './webhooks-page';

const API = '/api/v1.0/webhooks';
const ID = '00000000-0000-4000-8000-000000000001';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const endpoint: Webhook = {
  id: ID,
  url: 'https://hooks.acme.test/in',
  description: 'CRM sync',
  eventTypes: ['user.*', 'role.created'],
  enabled: true,
  ownerId: '00000000-0000-4000-8000-000000000002',
  createdAt: '2026-11-20T09:30:00.000Z',
  updatedAt: '2026-11-20T09:30:00.000Z',
};

const delivery = (patch: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: '00000000-0000-4000-8000-000000000101',
  endpointId: ID,
  messageId: 'msg_1',
  eventType: 'user.created',
  status: 'succeeded',
  attempts: 1,
  responseStatus: 200,
  lastError: null,
  skippedFor: null,
  createdAt: '2026-11-20T09:31:00.000Z',
  lastAttemptAt: '2026-11-20T09:31:01.000Z',
  nextAttemptAt: null,
  ...patch,
});

const page = <Row,>(rows: Row[]) => ({
  data: { data: rows, pageIndex: 1, pageSize: 10, totalCount: rows.length },
});

const listing = (rows: Webhook[]) => http.post(`${API}/page`, () => HttpResponse.json(page(rows)));

const sentTo = (path: string) => seenRequests().filter((seen) => seen.path === path).length;
const grid = () => screen.getByRole('grid', { name: 'Webhooks' });

async function openMenu() {
  const view = renderWithProviders(<WebhooksPage />, { url: '/dashboard/webhooks' });
  await view.user.click(await screen.findByRole('button', { name: `Actions for ${endpoint.url}` }));
  return view;
}

describe('the webhooks screen', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['webhooks']));

  describe('as an administrator', () => {
    // Subscribing to every event needs read access to every entity the events carry.
    const readAll = [
      'users:read',
      'roles:read',
      'permissions:read',
      'projects:read',
      'clients:read',
    ];
    signedInEachTest({
      tokens: {
        access_token: accessToken({
          permissions: ['webhooks:read', 'webhooks:write', ...readAll],
        }),
        refresh_token: 'r',
      },
    });

    it('lists endpoints with their events and state', async () => {
      server.use(listing([endpoint]));
      renderWithProviders(<WebhooksPage />, { url: '/dashboard/webhooks' });
      const row = (await within(grid()).findByText(endpoint.url)).closest('[role="row"]')!;
      const cells = within(row as HTMLElement).getAllByRole('gridcell');
      expect(cells.map((cell) => cell.textContent).slice(0, 5)).toEqual([
        '1',
        endpoint.url,
        'CRM sync',
        'All user events, role.created',
        'Enabled',
      ]);
    });

    it('shows the empty state, then the secret once after adding an endpoint', async () => {
      server.use(
        listing([]),
        http.post(`${API}/create`, () =>
          HttpResponse.json({ data: { ...endpoint, secret: SECRET } }, { status: 201 }),
        ),
      );
      const { user } = renderWithProviders(<WebhooksPage />, { url: '/dashboard/webhooks' });
      await user.click(await screen.findByRole('button', { name: 'Add your first endpoint' }));
      const dialog = screen.getByRole('dialog', { name: 'Add endpoint' });
      await user.type(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }), endpoint.url);
      await user.click(within(dialog).getByRole('button', { name: 'Save endpoint' }));
      const shown = await screen.findByRole('dialog', { name: 'Signing secret' });
      expect(within(shown).getByDisplayValue(SECRET)).toBeVisible();
      expect(within(shown).getByRole('button', { name: 'Copy secret' })).toBeVisible();
      expect((await bodiesSentTo(`${API}/create`)).at(-1)).toEqual({
        url: endpoint.url,
        description: '',
        eventTypes: ['*'],
        enabled: true,
      });
      await user.click(within(shown).getByRole('button', { name: 'Done' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    });

    it('names a refused address on its field', async () => {
      server.use(
        listing([]),
        http.post(`${API}/create`, () =>
          HttpResponse.json(
            {
              status: 400,
              code: 'webhook.url_private',
              detail: 'private',
              fields: { url: { code: 'webhook.url_private' } },
            },
            { status: 400, headers: { 'content-type': 'application/problem+json' } },
          ),
        ),
      );
      const { user } = renderWithProviders(<WebhooksPage />, { url: '/dashboard/webhooks' });
      await user.click(await screen.findByRole('button', { name: 'Add your first endpoint' }));
      const dialog = screen.getByRole('dialog', { name: 'Add endpoint' });
      await user.type(
        within(dialog).getByRole('textbox', { name: /Endpoint URL/ }),
        'http://10.0.0.1/',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Save endpoint' }));
      expect(await within(dialog).findByText(/private, loopback or link-local/)).toBeVisible();
    });

    it('shows the delivery log and resends a delivery', async () => {
      const failed = delivery({
        status: 'failed',
        attempts: 7,
        responseStatus: 503,
        lastError: 'answered HTTP 503',
      });
      server.use(
        listing([endpoint]),
        http.post(`${API}/${ID}/deliveries/page`, () => HttpResponse.json(page([failed]))),
        http.post(`${API}/${ID}/deliveries/${failed.id}/resend`, () =>
          HttpResponse.json({ data: delivery({ status: 'pending' }) }, { status: 202 }),
        ),
      );
      const { user } = await openMenu();
      await user.click(await screen.findByRole('menuitem', { name: 'Deliveries' }));
      const log = await screen.findByRole('dialog', { name: `Deliveries to ${endpoint.url}` });
      const row = (await within(log).findByText('Failed')).closest('tr')!;
      expect(within(row).getByText('503')).toBeVisible();
      expect(within(row).getByText('7')).toBeVisible();
      expect(within(row).getByText('answered HTTP 503')).toBeVisible();
      await user.click(within(row).getByRole('button', { name: 'Resend user.created' }));
      await waitFor(() => expect(sentTo(`${API}/${ID}/deliveries/${failed.id}/resend`)).toBe(1));
    });

    it('says in the log why a delivery was skipped', async () => {
      const skipped = delivery({
        status: 'skipped',
        attempts: 1,
        responseStatus: null,
        skippedFor: 'users:read',
        lastError: "not sent: the endpoint's owner does not hold users:read",
      });
      server.use(
        listing([endpoint]),
        http.post(`${API}/${ID}/deliveries/page`, () => HttpResponse.json(page([skipped]))),
      );
      const { user } = await openMenu();
      await user.click(await screen.findByRole('menuitem', { name: 'Deliveries' }));
      const log = await screen.findByRole('dialog', { name: `Deliveries to ${endpoint.url}` });
      const row = (await within(log).findByText('Skipped')).closest('tr')!;
      expect(
        within(row).getByText(
          'Not sent: the person who last saved this endpoint may not read it (users:read).',
        ),
      ).toBeVisible();
    });

    it('asks before rotating the secret, then shows the new one', async () => {
      server.use(
        listing([endpoint]),
        http.post(`${API}/${ID}/rotate-secret`, () =>
          HttpResponse.json({ data: { secret: SECRET } }),
        ),
      );
      const { user } = await openMenu();
      await user.click(await screen.findByRole('menuitem', { name: 'Rotate secret' }));
      const ask = await screen.findByRole('dialog', { name: 'Rotate signing secret' });
      await user.click(within(ask).getByRole('button', { name: 'Rotate secret' }));
      const shown = await screen.findByRole('dialog', { name: 'Signing secret' });
      expect(within(shown).getByDisplayValue(SECRET)).toBeVisible();
    });

    it('sends a test event', async () => {
      server.use(
        listing([endpoint]),
        http.post(`${API}/${ID}/test`, () =>
          HttpResponse.json({ data: delivery({ status: 'pending' }) }, { status: 202 }),
        ),
      );
      const { user } = await openMenu();
      await user.click(await screen.findByRole('menuitem', { name: 'Send test event' }));
      await waitFor(() => expect(sentTo(`${API}/${ID}/test`)).toBe(1));
    });
  });

  describe('with webhooks:write and projects:read, without users:read', () => {
    signedInEachTest({
      tokens: {
        access_token: accessToken({
          permissions: ['webhooks:read', 'webhooks:write', 'projects:read'],
        }),
        refresh_token: 'r',
      },
    });

    it('offers only the event types whose data the user may read, and says why', async () => {
      server.use(listing([]));
      const { user } = renderWithProviders(<WebhooksPage />, { url: '/dashboard/webhooks' });
      await user.click(await screen.findByRole('button', { name: 'Add your first endpoint' }));
      const dialog = screen.getByRole('dialog', { name: 'Add endpoint' });
      expect(
        within(dialog).getByText(
          'Only events whose data you may read are offered. The others need: users:read, roles:read, permissions:read, clients:read.',
        ),
      ).toBeVisible();
      await user.click(within(dialog).getByRole('combobox', { name: /Event types/ }));
      const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
      expect(options).toEqual([
        'All project events',
        'project.created',
        'project.updated',
        'project.deleted',
      ]);
    });
  });

  describe('with webhooks:read only', () => {
    signedInEachTest({
      tokens: { access_token: accessToken({ permissions: ['webhooks:read'] }), refresh_token: 'r' },
    });

    it('offers the log but nothing that changes an endpoint', async () => {
      server.use(listing([endpoint]));
      const { user } = await openMenu();
      expect(await screen.findByRole('menuitem', { name: 'Deliveries' })).toBeVisible();
      expect(screen.queryByRole('menuitem', { name: 'Send test event' })).toBeNull();
      expect(screen.queryByRole('menuitem', { name: 'Rotate secret' })).toBeNull();
      expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
    });
  });
});
