import type { ProvisioningSettings } from '@tc/contract/provisioning';
import { settingsRoutes } from '@tc/contract/routes/settings';
import type { SecurityPolicy } from '@tc/contract/security';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { Notifications } from '../../components/notifications';
import { routeUrl } from '../../lib/api';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { seenRequests, server } from '../../test/server';
import { accessToken, signedInEachTest } from '../../test/session';
import SettingsPage from './components/settings-page';

const POLICY = routeUrl(settingsRoutes.securityPolicy);
const PROVISIONING = routeUrl(settingsRoutes.provisioning);
const SCIM_BASE_URL = 'https://console.example.test/scim/v2/acme';
const saved: SecurityPolicy = {
  mfaPolicy: 'optional',
  passwordMinLength: 8,
  passwordRequireSpecial: true,
  passwordRefuseCommon: true,
};

const tokensWith = (permissions: string[]) => ({
  tokens: { access_token: accessToken({ permissions }), refresh_token: 'refresh' },
});

function policyAnswers() {
  server.use(
    http.get(POLICY, () => HttpResponse.json({ data: saved })),
    http.put(POLICY, async ({ request }) =>
      HttpResponse.json({ data: (await request.json()) as SecurityPolicy }),
    ),
    http.get(PROVISIONING, () =>
      HttpResponse.json({
        data: { scimNewUsers: 'invite', scimDelete: 'deactivate', scimBaseUrl: SCIM_BASE_URL },
      }),
    ),
    http.put(PROVISIONING, async ({ request }) =>
      HttpResponse.json({
        data: { ...((await request.json()) as ProvisioningSettings), scimBaseUrl: SCIM_BASE_URL },
      }),
    ),
  );
}

async function renderSettings() {
  const view = renderWithProviders(
    <>
      <SettingsPage />
      <Notifications />
    </>,
    { url: '/settings' },
  );
  await screen.findByRole('radiogroup', { name: 'Second factor' });
  return view;
}

describe('Settings: sign-in security, as an administrator', () => {
  beforeAll(() => loadEnglish(['settings']));
  signedInEachTest(tokensWith(['tenant:read', 'tenant:write']));

  it('saves the policy the administrator chose', async () => {
    policyAnswers();
    const { user } = await renderSettings();
    expect(screen.getByRole('radio', { name: 'Optional' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Required for everyone' }));
    // Tightening to everyone says what it means for users without a second factor.
    expect(screen.getByText(/must set one up at their next sign-in/)).toBeVisible();
    const length = screen.getByRole('spinbutton', { name: /Minimum password length/ });
    await user.clear(length);
    await user.type(length, '12');
    await user.click(screen.getByRole('switch', { name: 'Require a special character' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Sign-in security saved.')).toBeVisible();
    const puts = seenRequests().filter((request) => request.method === 'PUT');
    expect(await Promise.all(puts.map((put) => put.request.clone().json()))).toEqual([
      {
        mfaPolicy: 'everyone',
        passwordMinLength: 12,
        passwordRequireSpecial: false,
        passwordRefuseCommon: true,
      },
    ]);
  });

  it('refuses a minimum length outside 8 to 128 before sending', async () => {
    policyAnswers();
    const { user } = await renderSettings();
    const length = screen.getByRole('spinbutton', { name: /Minimum password length/ });
    await user.clear(length);
    await user.type(length, '7');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(length).toHaveAccessibleDescription(
        'Choose a minimum length from 8 to 128 characters.',
      ),
    );
    expect(seenRequests().filter((request) => request.method === 'PUT')).toEqual([]);
  });
});

describe('Settings: provisioning (SCIM), as an administrator', () => {
  beforeAll(() => loadEnglish(['settings']));
  signedInEachTest(tokensWith(['tenant:read', 'tenant:write']));

  it('shows the SCIM base URL and saves the two choices, warning before deletion', async () => {
    policyAnswers();
    const { user } = await renderSettings();
    const section = await screen.findByRole('region', { name: 'Provisioning (SCIM)' });
    expect(within(section).getByRole('textbox', { name: 'SCIM base URL' })).toHaveValue(
      SCIM_BASE_URL,
    );
    await user.click(within(section).getByRole('radio', { name: /Make them active/ }));
    await user.click(within(section).getByRole('radio', { name: 'Delete the user' }));
    expect(within(section).getByText(/gone for good/)).toBeVisible();
    await user.click(within(section).getByRole('button', { name: 'Apply provisioning choices' }));
    expect(await screen.findByText('Provisioning saved.')).toBeVisible();
    const puts = seenRequests().filter((request) => request.method === 'PUT');
    expect(await Promise.all(puts.map((put) => put.request.clone().json()))).toEqual([
      { scimNewUsers: 'activate', scimDelete: 'delete' },
    ]);
  });
});

describe('Settings: sign-in security, as a member (tenant:read only)', () => {
  beforeAll(() => loadEnglish(['settings']));
  signedInEachTest(tokensWith(['tenant:read']));

  it('shows the policy read-only, without Save', async () => {
    policyAnswers();
    await renderSettings();
    expect(screen.getByText(/Changing them needs the permission tenant:write/)).toBeVisible();
    for (const radio of screen.getAllByRole('radio')) expect(radio).toBeDisabled();
    expect(screen.getByRole('spinbutton', { name: /Minimum password length/ })).toBeDisabled();
    expect(screen.getByRole('switch', { name: /Refuse common passwords/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Apply provisioning choices' })).toBeNull();
    expect(await screen.findByRole('textbox', { name: 'SCIM base URL' })).toHaveValue(
      SCIM_BASE_URL,
    );
  });
});
