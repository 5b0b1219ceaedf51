import { userRoutes } from '@tc/contract/routes/users';
import type { Session, UserSecurity } from '@tc/contract/security';
import type { User } from '@tc/contract/users';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeUrl } from '../../lib/api';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { seenRequests, server } from '../../test/server';
import { signedInEachTest } from '../../test/session';
import { UserSecurityDialog } from './components/user-security-dialog';

const USER_ID = '00000000-0000-4000-8000-000000000042';
const user: User = {
  id: USER_ID,
  firstName: 'Una',
  lastName: 'Example',
  email: 'una@demo.localhost',
  roleId: '00000000-0000-4000-8000-000000000007',
  role: 'Member',
  status: 'active',
  invited: false,
} as User;

const session = (n: number, patch: Partial<Session> = {}): Session => ({
  id: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`,
  browser: 'Chrome 131',
  os: 'Linux',
  clientId: 'react-client',
  clientName: 'Tenant Console',
  ipAddress: `192.0.2.${n}`,
  createdAt: '2026-11-20T08:00:00.000Z',
  lastActiveAt: '2026-11-25T16:30:00.000Z',
  current: false,
  ...patch,
});

const ROUTES = {
  security: routeUrl(userRoutes.security, { params: { id: USER_ID } }),
  revokeOne: (sessionId: string) =>
    routeUrl(userRoutes.revokeSession, { params: { id: USER_ID, sessionId } }),
  revokeAll: routeUrl(userRoutes.revokeSessions, { params: { id: USER_ID } }),
  reset: routeUrl(userRoutes.resetMfa, { params: { id: USER_ID } }),
};

/** The server's view of the user, changed by the actions as the server would change it. */
function securityAnswers(state: { security: UserSecurity }) {
  const current = () => HttpResponse.json({ data: state.security });
  server.use(
    http.get(ROUTES.security, current),
    http.post(`${ROUTES.security}/:sessionId/revoke`, ({ params }) => {
      const before = state.security.sessions.length;
      state.security = {
        ...state.security,
        sessions: state.security.sessions.filter((s) => s.id !== params.sessionId),
      };
      return HttpResponse.json({ data: { revoked: before - state.security.sessions.length } });
    }),
    http.post(ROUTES.revokeAll, () => {
      const revoked = state.security.sessions.length;
      state.security = { ...state.security, sessions: [] };
      return HttpResponse.json({ data: { revoked } });
    }),
    http.post(ROUTES.reset, () => {
      state.security = {
        ...state.security,
        secondFactors: { totp: false, recoveryCodesLeft: 0, passkeys: [], required: true },
      };
      return current();
    }),
  );
}

const enrolled = (): UserSecurity => ({
  sessions: [session(1, { browser: 'Firefox 133', os: 'Windows' }), session(2)],
  secondFactors: {
    totp: true,
    recoveryCodesLeft: 7,
    passkeys: [
      {
        id: '00000000-0000-4000-8000-000000000201',
        name: 'Work laptop',
        createdAt: '2026-11-01T09:00:00.000Z',
        lastUsedAt: null,
      },
    ],
    required: true,
  },
});

async function open() {
  const view = renderWithProviders(<UserSecurityDialog user={user} onClose={() => undefined} />);
  const dialog = await screen.findByRole('dialog', { name: 'Sessions and security: Una Example' });
  await within(dialog).findByRole('table', { name: 'Sessions of Una Example' });
  return { ...view, dialog };
}

describe("A user's sessions and security (administrator)", () => {
  beforeAll(() => loadEnglish(['users', 'sessions']));
  signedInEachTest();

  it('lists the sessions and second factors', async () => {
    securityAnswers({ security: enrolled() });
    const { dialog } = await open();
    const rows = within(dialog).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Firefox 133 on Windows',
      'Chrome 131 on Linux',
    ]);
    expect(rows[0]).toHaveTextContent('Tenant Console');
    expect(rows[0]).toHaveTextContent('192.0.2.1');
    expect(dialog).toHaveTextContent(/Authenticator app\s*Yes/);
    expect(dialog).toHaveTextContent(/Recovery codes left\s*7/);
    expect(dialog).toHaveTextContent(/Passkeys\s*1: Work laptop/);
  });

  it('signs one session out after a confirmation', async () => {
    const state = { security: enrolled() };
    securityAnswers(state);
    const { dialog, user: actor } = await open();
    const target = enrolled().sessions[0]!;
    await actor.click(
      within(dialog).getByRole('button', { name: 'Sign out: Firefox 133 on Windows, 192.0.2.1' }),
    );
    const ask = screen.getByRole('dialog', { name: 'Sign out this session?' });
    expect(ask).toHaveTextContent('Una Example is signed out of Firefox 133 on Windows at once.');
    await actor.click(within(ask).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(within(dialog).getAllByRole('row')).toHaveLength(2));
    expect(
      seenRequests()
        .filter((r) => r.method === 'POST')
        .map((r) => r.path),
    ).toEqual([ROUTES.revokeOne(target.id)]);
  });

  it('signs the user out everywhere after a confirmation', async () => {
    securityAnswers({ security: enrolled() });
    const { dialog, user: actor } = await open();
    await actor.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    const ask = screen.getByRole('dialog', { name: 'Sign out everywhere?' });
    await actor.click(within(ask).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await within(dialog).findByText('No open sessions.')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Sign out everywhere' })).toBeDisabled();
  });

  it('resets the second factors after a confirmation that says the user enrols again', async () => {
    securityAnswers({ security: enrolled() });
    const { dialog, user: actor } = await open();
    await actor.click(within(dialog).getByRole('button', { name: 'Reset second factors' }));
    const ask = screen.getByRole('dialog', { name: 'Reset second factors?' });
    expect(ask).toHaveTextContent('must set up a second factor again');
    expect(seenRequests().some((r) => r.path === ROUTES.reset)).toBe(false);
    await actor.click(within(ask).getByRole('button', { name: 'Reset' }));

    await waitFor(() => expect(dialog).toHaveTextContent(/Authenticator app\s*No/));
    expect(dialog).toHaveTextContent(/Passkeys\s*None/);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'this user must set one up at their next sign-in',
    );
    expect(within(dialog).getByRole('button', { name: 'Reset second factors' })).toBeDisabled();
  });
});
