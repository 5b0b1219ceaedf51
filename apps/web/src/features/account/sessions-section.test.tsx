import { accountRoutes } from '@tc/contract/routes/account';
import type { Session } from '@tc/contract/security';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeUrl } from '../../lib/api';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { seenRequests, server } from '../../test/server';
import { signedInEachTest } from '../../test/session';
import { SessionsSection } from './components/sessions-section';

const ROUTES = {
  sessions: routeUrl(accountRoutes.sessions),
  revokeOthers: routeUrl(accountRoutes.revokeOtherSessions),
};

const session = (n: number, patch: Partial<Session> = {}): Session => ({
  id: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`,
  browser: 'Chrome 131',
  os: 'Linux',
  clientId: 'react-client',
  clientName: null,
  ipAddress: `192.0.2.${n}`,
  createdAt: '2026-11-20T08:00:00.000Z',
  lastActiveAt: '2026-11-25T16:30:00.000Z',
  current: false,
  ...patch,
});

function sessionsAnswers(state: { sessions: Session[] }) {
  server.use(
    http.get(ROUTES.sessions, () => HttpResponse.json({ data: state.sessions })),
    http.post(ROUTES.revokeOthers, () => {
      const revoked = state.sessions.filter((s) => !s.current).length;
      state.sessions = state.sessions.filter((s) => s.current);
      return HttpResponse.json({ data: { revoked } });
    }),
  );
}

describe('Account: sessions', () => {
  beforeAll(() => loadEnglish(['account', 'sessions']));
  signedInEachTest();

  it('marks this device, offers no Sign out on it, and signs the others out after asking', async () => {
    sessionsAnswers({
      sessions: [
        session(1, { current: true }),
        session(2, { browser: null, os: 'iOS', clientId: 'shop-app', ipAddress: null }),
      ],
    });
    const { user } = renderWithProviders(<SessionsSection />);
    const table = await screen.findByRole('table', { name: 'Open sessions' });
    const [, mine, other] = within(table).getAllByRole('row');
    expect(mine).toHaveTextContent('Chrome 131 on LinuxThis device');
    expect(within(mine!).queryByRole('button')).toBeNull();
    // Half a user agent is shown as it is; an application without a name by its client ID.
    expect(other).toHaveTextContent('iOS');
    expect(other).toHaveTextContent('shop-app');
    expect(within(other!).getByRole('button', { name: 'Sign out: iOS, Unknown' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Sign out all other sessions' }));
    const ask = screen.getByRole('dialog', { name: 'Sign out all other sessions?' });
    expect(seenRequests().some((r) => r.path === ROUTES.revokeOthers)).toBe(false);
    await user.click(within(ask).getByRole('button', { name: 'Sign out others' }));

    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Sign out all other sessions' })).toBeDisabled();
  });
});
