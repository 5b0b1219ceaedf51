import { accountRoutes } from '@tc/contract/routes/account';
import type { SecondFactors } from '@tc/contract/security';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeUrl } from '../../lib/api';
import { problemResponse } from '../../test/problems';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { bodiesSentTo, seenRequests, server } from '../../test/server';
import { signedInEachTest } from '../../test/session';
import { AuthenticatorSection } from './components/authenticator-section';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/demo:ada%40demo.localhost?secret=${SECRET}&issuer=demo`;
const CODES = Array.from({ length: 10 }, (_, i) => `AAAA-BBBB-CCCC-${String(i).padStart(4, '0')}`);
const ROUTES = {
  factors: routeUrl(accountRoutes.secondFactors),
  setup: routeUrl(accountRoutes.totpSetup),
  confirm: routeUrl(accountRoutes.totpConfirm),
  remove: routeUrl(accountRoutes.totpRemove),
  codes: routeUrl(accountRoutes.recoveryCodes),
};

const none: SecondFactors = { totp: false, recoveryCodesLeft: 0, passkeys: [], required: false };

/** The server's second factors, which the test changes as the server would. */
function factorsAnswer(state: { factors: SecondFactors }) {
  return http.get(ROUTES.factors, () => HttpResponse.json({ data: state.factors }));
}

function enrolment(state: { factors: SecondFactors }) {
  server.use(
    factorsAnswer(state),
    http.post(ROUTES.setup, () => HttpResponse.json({ data: { secret: SECRET, otpauthUri: URI } })),
    http.post(ROUTES.confirm, async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      if (code !== '123456') {
        return problemResponse(400, 'mfa.code_wrong', { fields: { code: 'mfa.code_wrong' } });
      }
      state.factors = { ...state.factors, totp: true, recoveryCodesLeft: 10 };
      return HttpResponse.json({ data: { recoveryCodes: CODES } });
    }),
  );
}

async function startSetUp() {
  const view = renderWithProviders(<AuthenticatorSection />);
  await view.user.click(await screen.findByRole('button', { name: 'Set up' }));
  await screen.findByRole('img', { name: /QR code that adds your account/ });
  return view;
}

describe('Authenticator app', () => {
  beforeAll(() => loadEnglish(['account', 'second-factor']));
  signedInEachTest();

  it('enrols: QR code and key shown, the first code confirms, the ten codes are shown once', async () => {
    const state = { factors: none };
    enrolment(state);
    const { user } = await startSetUp();

    // The QR code is drawn in the page from the otpauth URI; the key is there as text too.
    const qr = screen.getByRole('img', { name: /QR code/ });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(screen.getByRole('textbox', { name: 'Key' })).toHaveValue(SECRET);
    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);

    await user.type(screen.getByRole('textbox', { name: /Code from the app/ }), '123 456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    const list = within(dialog).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    // Spaces of "123 456" are the app's display, not part of the code.
    expect(await bodiesSentTo(ROUTES.confirm)).toEqual([{ code: '123456' }]);

    await user.click(within(dialog).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText(CODES[0]!)).toBeNull();
    expect(await screen.findByText('10 recovery codes left.')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Key' })).toBeNull();
  });

  it('puts a wrong code on the code field and keeps the enrolment open', async () => {
    enrolment({ factors: none });
    const { user } = await startSetUp();
    const code = screen.getByRole('textbox', { name: /Code from the app/ });
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription(
      'This code is not right. Enter the code your app shows now.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('img', { name: /QR code/ })).toBeVisible();
  });

  it('refuses an empty code before asking the server', async () => {
    enrolment({ factors: none });
    const { user } = await startSetUp();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    const code = screen.getByRole('textbox', { name: /Code from the app/ });
    await waitFor(() => expect(code).toHaveAccessibleDescription('Enter the code.'));
    expect(seenRequests().filter((request) => request.path === ROUTES.confirm)).toEqual([]);
  });

  it('makes new recovery codes only after a confirmation, and shows them once', async () => {
    server.use(
      factorsAnswer({ factors: { ...none, totp: true, recoveryCodesLeft: 3 } }),
      http.post(ROUTES.codes, () => HttpResponse.json({ data: { recoveryCodes: CODES } })),
    );
    const { user } = renderWithProviders(<AuthenticatorSection />);
    expect(await screen.findByText('3 recovery codes left.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'New recovery codes' }));
    const ask = screen.getByRole('dialog', { name: 'Make new recovery codes?' });
    expect(seenRequests().some((request) => request.path === ROUTES.codes)).toBe(false);
    await user.click(within(ask).getByRole('button', { name: 'Make new codes' }));
    const shown = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(within(shown).getAllByRole('listitem')).toHaveLength(10);
  });

  it('removes the app after a confirmation; a refusal stays in the dialog', async () => {
    server.use(
      factorsAnswer({ factors: { ...none, totp: true, recoveryCodesLeft: 10, required: true } }),
      http.delete(ROUTES.remove, () => problemResponse(409, 'mfa.last_factor_required')),
    );
    const { user } = renderWithProviders(<AuthenticatorSection />);
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    const ask = screen.getByRole('dialog', { name: 'Remove the authenticator app?' });
    await user.click(within(ask).getByRole('button', { name: 'Remove app' }));
    expect(await within(ask).findByRole('alert')).toHaveTextContent(
      'Your tenant requires a second factor: add another one before removing this one.',
    );
  });
});

/** jsdom's Blob has no text(): read as a browser's FileReader would. */
const readText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

describe('Recovery codes download', () => {
  beforeAll(() => loadEnglish(['account', 'second-factor']));
  signedInEachTest();
  const created: Blob[] = [];
  beforeEach(() => {
    created.length = 0;
    // jsdom has no object URLs: the file is kept to read it back.
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return 'blob:codes';
    };
    URL.revokeObjectURL = () => undefined;
  });
  afterEach(() => {
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it('downloads the codes as a text file, one a line', async () => {
    const state = { factors: none };
    enrolment(state);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = await startSetUp();
    await user.type(screen.getByRole('textbox', { name: /Code from the app/ }), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));

    expect(clicked).toHaveBeenCalledOnce();
    const link = clicked.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('recovery-codes.txt');
    expect(created).toHaveLength(1);
    expect(created[0]!.type).toBe('text/plain');
    expect(await readText(created[0]!)).toBe(`${CODES.join('\n')}\n`);
    // Escape and a click beside it do not lose the codes: only the button closes.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Your recovery codes' })).toBeVisible();
    clicked.mockRestore();
  });
});
