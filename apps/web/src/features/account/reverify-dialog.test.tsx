import { accountRoutes } from '@tc/contract/routes/account';
import type { SecondFactors } from '@tc/contract/security';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeUrl } from '../../lib/api';
import { problemResponse } from '../../test/problems';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { bodiesSentTo, server } from '../../test/server';
import { signedInEachTest } from '../../test/session';
import { AuthenticatorSection } from './components/authenticator-section';
import { ReverifyDialog } from './components/reverify-dialog';

const ROUTES = {
  factors: routeUrl(accountRoutes.secondFactors),
  remove: routeUrl(accountRoutes.totpRemove),
  reverify: routeUrl(accountRoutes.reverify),
};
const withApp: SecondFactors = { totp: true, recoveryCodesLeft: 10, passkeys: [], required: false };

/** A server whose session is old: the removal is held until the right password came. */
function oldSession() {
  const state = { proven: false, removals: 0 };
  server.use(
    http.get(ROUTES.factors, () => HttpResponse.json({ data: withApp })),
    http.delete(ROUTES.remove, () => {
      if (!state.proven) return problemResponse(403, 'auth.reverification_required');
      state.removals += 1;
      return HttpResponse.json({ data: { ok: true } });
    }),
    http.post(ROUTES.reverify, async ({ request }) => {
      const { password } = (await request.json()) as { password?: string };
      if (password !== 'Right-password-1!') {
        return problemResponse(400, 'account.current_password_wrong', {
          fields: { password: 'account.current_password_wrong' },
        });
      }
      state.proven = true;
      return HttpResponse.json({ data: { ok: true } });
    }),
  );
  return state;
}

async function removeApp() {
  const view = renderWithProviders(
    <>
      <AuthenticatorSection />
      <ReverifyDialog />
    </>,
  );
  await view.user.click(await screen.findByRole('button', { name: 'Remove' }));
  const ask = screen.getByRole('dialog', { name: 'Remove the authenticator app?' });
  await view.user.click(within(ask).getByRole('button', { name: 'Remove app' }));
  return view;
}

// Typing a password key by key takes seconds on a busy machine.
describe('re-verification dialog', { timeout: 30_000 }, () => {
  beforeAll(() => loadEnglish(['account', 'second-factor']));
  signedInEachTest();

  it('asks for the password when the server holds a change, then sends the change again', async () => {
    const state = oldSession();
    const { user } = await removeApp();
    const proof = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    const password = within(proof).getByLabelText(/Current password/);
    expect(password).toHaveFocus();

    await user.type(password, 'Wrong-password-1!{Enter}');
    expect(await within(proof).findByText('This is not your current password.')).toBeVisible();
    expect(state.removals).toBe(0);

    await user.clear(password);
    await user.type(password, 'Right-password-1!{Enter}');
    await waitFor(() => expect(state.removals).toBe(1));
    expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).toBeNull();
    expect(await bodiesSentTo(ROUTES.reverify)).toEqual([
      { password: 'Wrong-password-1!' },
      { password: 'Right-password-1!' },
    ]);
  });

  it('offers a code instead when the account has an authenticator app', async () => {
    oldSession();
    const { user } = await removeApp();
    const proof = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await user.click(within(proof).getByRole('button', { name: 'Use a code instead' }));
    await user.type(within(proof).getByRole('textbox', { name: /Code/ }), '123456{Enter}');
    await waitFor(async () =>
      expect(await bodiesSentTo(ROUTES.reverify)).toEqual([{ code: '123456' }]),
    );
  });

  it('leaves the refusal as the change’s failure when the dialog is cancelled', async () => {
    const state = oldSession();
    const { user } = await removeApp();
    const proof = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await user.click(within(proof).getByRole('button', { name: 'Cancel' }));
    const ask = screen.getByRole('dialog', { name: 'Remove the authenticator app?' });
    expect(await within(ask).findByRole('alert')).toHaveTextContent(/Confirm it is you/);
    expect(state.removals).toBe(0);
  });
});
