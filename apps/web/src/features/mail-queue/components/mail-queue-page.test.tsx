import { screen, waitFor, within } from '@testing-library/react';
import type { MailQueueEntry } from '@tc/contract/mail-queue';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentSearchParams, loadEnglish, renderWithProviders } from '../../../test/render';
import { bodiesSentTo, server } from '../../../test/server';
import { accessToken, signedInEachTest } from '../../../test/session';
import MailQueuePage from './mail-queue-page';

const PAGE_PATH = '/api/v1.0/mail-queue/page';
const REFUSAL =
  "Can't send mail - all recipients were rejected: 550 5.1.1 <jo@acme.test>: mailbox unavailable";

const entry = (index: number, patch: Partial<MailQueueEntry> = {}): MailQueueEntry => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  tenantId: '00000000-0000-4000-8000-000000000999',
  tenantName: 'acme',
  toAddress: `user${index}@acme.test`,
  subject: `Subject ${index}`,
  status: 'dead',
  attempts: 10,
  lastError: REFUSAL,
  createdAt: '2026-11-20T09:30:00.000Z',
  nextAttemptAt: '2026-11-20T10:30:00.000Z',
  ...patch,
});

const answering = (rows: MailQueueEntry[]) =>
  http.post(PAGE_PATH, () =>
    HttpResponse.json({
      data: { data: rows, pageIndex: 1, pageSize: 10, totalCount: rows.length },
    }),
  );

const grid = () => screen.getByRole('grid', { name: 'Undelivered mail' });

describe('the undelivered mail screen', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['mailQueue']));
  signedInEachTest({
    tokens: { access_token: accessToken({ superAdmin: true }), refresh_token: 'r' },
  });

  it('lists each message with its tenant, status, attempts and last error, and nothing to edit', async () => {
    server.use(
      answering([
        entry(1),
        entry(2, { status: 'pending', attempts: 3, tenantName: 'globex', lastError: null }),
      ]),
    );
    const { user } = renderWithProviders(<MailQueuePage />, { url: '/mail-queue' });
    const first = (await within(grid()).findByText('user1@acme.test')).closest('[role="row"]');
    const dead = within(first as HTMLElement);
    expect(dead.getByText('acme')).toBeInTheDocument();
    expect(dead.getByText('Dead')).toBeInTheDocument();
    expect(dead.getByText('10')).toBeInTheDocument();
    // The refusal is cut to the cell's width; its whole text is the tooltip's.
    await user.hover(dead.getByText(REFUSAL));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(REFUSAL);
    const second = within(grid()).getByText('user2@acme.test').closest('[role="row"]');
    expect(within(second as HTMLElement).getByText('Retrying')).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText('globex')).toBeInTheDocument();

    expect(screen.queryByRole('button', { name: /add/i })).toBeNull();
    expect(within(grid()).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    expect((await bodiesSentTo(PAGE_PATH)).at(-1)).toEqual({
      pageIndex: 1,
      pageSize: 10,
      filter: {},
      listSort: { field: 'createdAt', direction: 1 },
    });
  });

  it('asks for one status when filtered, on page 1, and keeps it in the address', async () => {
    server.use(answering([entry(1)]));
    const { user } = renderWithProviders(<MailQueuePage />, { url: '/mail-queue?page=2' });
    await within(grid()).findByText('user1@acme.test');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Expired' }));
    await waitFor(async () =>
      expect((await bodiesSentTo(PAGE_PATH)).at(-1)).toMatchObject({
        pageIndex: 1,
        filter: { status: 'expired' },
      }),
    );
    expect(currentSearchParams()).toEqual({ status: 'expired' });
  });

  it('says there is nothing undelivered when the queue is empty, without an add action', async () => {
    server.use(answering([]));
    renderWithProviders(<MailQueuePage />, { url: '/mail-queue' });
    expect(await screen.findByRole('heading', { name: 'Nothing undelivered' })).toBeVisible();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
