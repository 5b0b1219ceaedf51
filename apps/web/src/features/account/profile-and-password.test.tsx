import { accountRoutes } from '@tc/contract/routes/account';
import type { AccountProfile } from '@tc/contract/security';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeUrl } from '../../lib/api';
import i18n from '../../lib/i18n';
import { problemResponse } from '../../test/problems';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { bodiesSentTo, seenRequests, server } from '../../test/server';
import { signedInEachTest } from '../../test/session';
import { PasswordSection } from './components/password-section';
import { ProfileSection } from './components/profile-section';

const ROUTES = {
  profile: routeUrl(accountRoutes.profile),
  password: routeUrl(accountRoutes.changePassword),
};

const profile: AccountProfile = {
  id: '00000000-0000-4000-8000-000000000011',
  email: 'ada@demo.localhost',
  firstName: 'Ada',
  lastName: 'Admin',
  locale: null,
  notifyNewBrowser: true,
};

describe('Account: profile', () => {
  beforeAll(() => loadEnglish(['account']));
  signedInEachTest();
  afterEach(() => i18n.changeLanguage('en'));

  it('saves name, language and the mail switch; "browser default" is no language', async () => {
    server.use(
      http.get(ROUTES.profile, () => HttpResponse.json({ data: profile })),
      http.put(ROUTES.profile, async ({ request }) =>
        HttpResponse.json({ data: { ...profile, ...((await request.json()) as object) } }),
      ),
    );
    const { user } = renderWithProviders(<ProfileSection />);
    const first = await screen.findByRole('textbox', { name: /^First name/ });
    expect(first).toHaveValue('Ada');
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveAttribute('readonly');
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveTextContent('Browser default');

    await user.clear(first);
    await user.type(first, 'Adele');
    await user.click(screen.getByRole('switch', { name: /new browser/ }));
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(seenRequests().some((r) => r.method === 'PUT')).toBe(true));

    await user.click(screen.getByRole('combobox', { name: 'Language' }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Deutsch' }));
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    // The chosen language becomes the console's too.
    await waitFor(() => expect(i18n.resolvedLanguage).toBe('de'));

    const puts = seenRequests().filter((r) => r.method === 'PUT');
    expect(await Promise.all(puts.map((put) => put.request.clone().json()))).toEqual([
      { firstName: 'Adele', lastName: 'Admin', locale: null, notifyNewBrowser: false },
      { firstName: 'Adele', lastName: 'Admin', locale: 'de', notifyNewBrowser: false },
    ]);
  });
});

describe('Account: change password', () => {
  beforeAll(() => loadEnglish(['account']));
  signedInEachTest();

  async function fill(current: string, next: string, confirm: string) {
    const view = renderWithProviders(<PasswordSection />);
    await view.user.type(screen.getByLabelText(/^Current password/), current);
    await view.user.type(screen.getByLabelText(/^New password/), next);
    await view.user.type(screen.getByLabelText(/^Confirm new password/), confirm);
    await view.user.click(screen.getByRole('button', { name: 'Change password' }));
    return view;
  }

  it('refuses a confirmation that differs, before asking the server', async () => {
    await fill('Old-passw0rd!', 'New-passw0rd!', 'New-passw0rd?');
    const confirm = screen.getByLabelText(/^Confirm new password/);
    await waitFor(() => expect(confirm).toHaveAccessibleDescription('Passwords do not match.'));
    expect(seenRequests()).toEqual([]);
  });

  it("puts the server's wrong current password on its field", async () => {
    server.use(
      http.post(ROUTES.password, () =>
        problemResponse(400, 'account.current_password_wrong', {
          fields: { currentPassword: 'account.current_password_wrong' },
        }),
      ),
    );
    await fill('Wrong-passw0rd!', 'New-passw0rd!', 'New-passw0rd!');
    const current = screen.getByLabelText(/^Current password/);
    await waitFor(() =>
      expect(current).toHaveAccessibleDescription('This is not your current password.'),
    );
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('changes it, says the other sessions were signed out, and clears the fields', async () => {
    server.use(http.post(ROUTES.password, () => HttpResponse.json({ data: { ok: true } })));
    await fill('Old-passw0rd!', 'New-passw0rd!', 'New-passw0rd!');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Password changed. Your other sessions were signed out.',
    );
    expect(await bodiesSentTo(ROUTES.password)).toEqual([
      { currentPassword: 'Old-passw0rd!', newPassword: 'New-passw0rd!' },
    ]);
    expect(screen.getByLabelText(/^New password/)).toHaveValue('');
  });
});
