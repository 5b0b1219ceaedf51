import type { TenantInfo } from '@tc/contract/identity';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadEnglish } from '../../../test/render';
import { bodiesSentTo, seenRequests, server } from '../../../test/server';
import { demoTenant } from '../../../test/session';
import type { AuthPageState } from '@tc/contract/auth-page';
import HostedSignInPage from './hosted-sign-in-page';
import { renderAuthPage } from '../../../test/auth-page';

/** The browser's passkey prompt, as the page meets it through @simplewebauthn/browser. */
const webAuthn = vi.hoisted(() => ({
  supported: true,
  startAuthentication: vi.fn<(input: { optionsJSON: unknown }) => Promise<unknown>>(),
}));
vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: () => webAuthn.supported,
  startAuthentication: webAuthn.startAuthentication,
}));

const PAGE = '/login-actions/shop/uid-1';
const RESUME = 'http://localhost/realms/shop/protocol/openid-connect/auth/uid-1';
const shop: TenantInfo = { ...demoTenant, id: '00000000-0000-4000-8000-000000000002' };
const refused = (status: number, error: string) =>
  HttpResponse.json({ error, error_description: `refused: ${error}` }, { status });

let passkeysHere = false;
/** Whether the request's details say passkeys work on this address. */
function answers({ passkeys = false }: { passkeys?: boolean } = {}) {
  passkeysHere = passkeys;
}

/** The form fields the page posted to a step, in order. */
async function formsSentTo(path: string) {
  const sent = seenRequests().filter((entry) => entry.path === path);
  return Promise.all(
    sent.map(async (entry) => Object.fromEntries(new URLSearchParams(await entry.request.text()))),
  );
}

/** The page as the server renders it for the request (its details in the page state). */
function renderPage(state: Partial<AuthPageState> = {}) {
  return renderAuthPage(<HostedSignInPage />, {
    page: 'hostedSignIn',
    url: PAGE,
    tenant: shop,
    hosted: { realm: 'shop', uid: 'uid-1', loginHint: 'erin@shop.example', passkeys: passkeysHere },
    ...state,
  });
}

/** Renders the page and signs in with the password, which the server answers with `step`. */
async function afterPassword(step: Record<string, unknown>) {
  server.use(http.post(`${PAGE}/login`, () => HttpResponse.json(step)));
  const view = renderPage();
  await view.user.type(await screen.findByLabelText(/^Password/), 'Correct-horse-1!');
  await view.user.click(screen.getByRole('button', { name: 'Sign in' }));
  return view;
}

// Several screens typed through one after another: seconds each on a busy two-core runner.
describe('hosted sign-in page: the steps after the password', { timeout: 30_000 }, () => {
  const assign = vi.fn();
  beforeAll(() => loadEnglish([]));
  beforeEach(() => {
    assign.mockClear();
    webAuthn.supported = true;
    webAuthn.startAuthentication.mockReset();
    vi.stubGlobal('location', { ...window.location, assign });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the code, shows a wrong one, and goes on with the right one', async () => {
    answers();
    server.use(
      http.post(`${PAGE}/second-factor`, async ({ request }) => {
        const code = new URLSearchParams(await request.text()).get('code');
        return code === '123456'
          ? HttpResponse.json({ next: 'done', redirectTo: RESUME })
          : refused(401, 'invalid_grant');
      }),
    );
    const { user } = await afterPassword({
      next: 'second-factor',
      methods: ['totp', 'recovery-code'],
    });
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    const field = screen.getByLabelText(/^Authentication code/);
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveFocus();

    await user.type(field, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That code is not right. Check your authenticator app and try again.',
    );
    expect(field).toHaveValue('');
    expect(field).toHaveFocus();
    expect(assign).not.toHaveBeenCalled();

    // Apps show the code as "123 456"; the space is not part of it.
    await user.type(field, '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(await formsSentTo(`${PAGE}/second-factor`)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
  });

  it('takes a recovery code instead, and says when one is spent or too many were tried', async () => {
    answers();
    let calls = 0;
    server.use(
      http.post(`${PAGE}/second-factor`, () =>
        ++calls === 1 ? refused(401, 'invalid_grant') : refused(429, 'slow_down'),
      ),
    );
    const { user } = await afterPassword({
      next: 'second-factor',
      methods: ['totp', 'recovery-code'],
    });
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText(/^Recovery code/);
    expect(field).toHaveAttribute('autocomplete', 'off');
    await user.type(field, 'ABCD-EFGH-JKLM-NPQR');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That recovery code is not valid or has already been used.',
    );
    await user.type(field, 'ABCD-EFGH-JKLM-NPQS');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('Too many attempts. Wait a moment and try again.'),
    ).toBeVisible();
    expect(await formsSentTo(`${PAGE}/second-factor`)).toEqual([
      { code: 'ABCD-EFGH-JKLM-NPQR' },
      { code: 'ABCD-EFGH-JKLM-NPQS' },
    ]);
    // Back to the authenticator, and back to the password.
    await user.click(screen.getByRole('button', { name: 'Use your authenticator app' }));
    expect(screen.getByLabelText(/^Authentication code/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
  });

  it('refuses to send an empty code and names the field', async () => {
    answers();
    const { user } = await afterPassword({ next: 'second-factor', methods: ['totp'] });
    await user.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the code.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
    expect(seenRequests().some((entry) => entry.path === `${PAGE}/second-factor`)).toBe(false);
  });

  it('enrols the authenticator the tenant requires and shows the recovery codes once', async () => {
    answers();
    const codes = Array.from({ length: 10 }, (_, i) => `CODE-000${i}-AAAA-BBBB`);
    const otpauthUri = 'otpauth://totp/Shop:erin%40shop.example?secret=JBSWY3DPEHPK3PXP';
    server.use(
      http.post(`${PAGE}/enrol/totp`, () =>
        HttpResponse.json({ secret: 'JBSWY3DPEHPK3PXP', otpauthUri }),
      ),
      http.post(`${PAGE}/enrol/totp/confirm`, async ({ request }) =>
        new URLSearchParams(await request.text()).get('code') === '654321'
          ? HttpResponse.json({ next: 'done', redirectTo: RESUME, recoveryCodes: codes })
          : refused(401, 'invalid_grant'),
      ),
    );
    const { user } = await afterPassword({ next: 'enrol' });

    expect(
      await screen.findByRole('heading', { name: 'Set up two-step verification' }),
    ).toBeVisible();
    expect(
      await screen.findByRole('img', {
        name: 'QR code that adds your account to an authenticator app',
      }),
    ).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Key' })).toHaveValue('JBSWY3DPEHPK3PXP');

    const field = screen.getByLabelText(/^Code from the app/);
    await user.type(field, '111111');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right.');
    await user.type(field, '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
    const list = screen.getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(assign).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Copy codes' }));
    expect(await screen.findByText('Copied.')).toBeVisible();
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(codes.join('\n'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    // One secret for the visit of the step.
    expect(seenRequests().filter((entry) => entry.path === `${PAGE}/enrol/totp`)).toHaveLength(1);
  });
});

describe('hosted sign-in page: Sign in with a passkey', { timeout: 30_000 }, () => {
  const assign = vi.fn();
  beforeAll(() => loadEnglish([]));
  beforeEach(() => {
    assign.mockClear();
    webAuthn.supported = true;
    webAuthn.startAuthentication.mockReset();
    vi.stubGlobal('location', { ...window.location, assign });
  });
  afterEach(() => vi.unstubAllGlobals());

  const options = { challenge: 'Y2hhbGxlbmdl', rpId: 'shop.example', allowCredentials: [] };
  const assertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} };

  it('is offered only where the request says passkeys work and the browser has WebAuthn', async () => {
    answers({ passkeys: false });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });

  it('is not offered by a browser without WebAuthn', async () => {
    webAuthn.supported = false;
    answers({ passkeys: true });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });

  it("hands the server's options to the browser and its assertion to the server", async () => {
    answers({ passkeys: true });
    server.use(
      http.post(`${PAGE}/passkey/options`, () => HttpResponse.json({ options })),
      http.post(`${PAGE}/passkey`, () => HttpResponse.json({ next: 'done', redirectTo: RESUME })),
    );
    webAuthn.startAuthentication.mockResolvedValue(assertion);
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(webAuthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
    expect(await bodiesSentTo(`${PAGE}/passkey`)).toEqual([
      { response: assertion, remember: false },
    ]);
    // No password was sent.
    expect(seenRequests().some((entry) => entry.path === `${PAGE}/login`)).toBe(false);
  });

  it('asks for the password when the passkey alone did not verify the user', async () => {
    answers({ passkeys: true });
    server.use(
      http.post(`${PAGE}/passkey/options`, () => HttpResponse.json({ options })),
      http.post(`${PAGE}/passkey`, () => refused(400, 'passkey_not_verified')),
    );
    webAuthn.startAuthentication.mockResolvedValueOnce(assertion);
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This passkey did not confirm it was you (no PIN, fingerprint or face). Sign in with your password',
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it('says so when the server does not know the passkey, or the prompt was closed', async () => {
    answers({ passkeys: true });
    server.use(
      http.post(`${PAGE}/passkey/options`, () => HttpResponse.json({ options })),
      http.post(`${PAGE}/passkey`, () => refused(401, 'invalid_grant')),
    );
    webAuthn.startAuthentication.mockResolvedValueOnce(assertion);
    const { user } = renderPage();
    const button = await screen.findByRole('button', { name: 'Sign in with a passkey' });
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This passkey was not accepted. It may have been removed from your account',
    );

    webAuthn.startAuthentication.mockRejectedValueOnce(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No passkey was used: the request was cancelled or timed out.',
    );
    expect(assign).not.toHaveBeenCalled();
  });
});
