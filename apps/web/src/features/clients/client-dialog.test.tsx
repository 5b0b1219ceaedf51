import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { problemResponse } from '../../test/problems';
import {
  builtInClient,
  clientAdminTokens,
  clientRow,
  clientsPage,
  CLIENTS,
  meAnswer,
} from '../../test/clients-harness';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { bodiesSentTo, seenRequests, server } from '../../test/server';
import { signedInEachTest } from '../../test/session';
import ClientsPage from './components/clients-page';

const SECRET = 's3cr3t-shown-once';
const sentTo = (path: string) => seenRequests().filter((entry) => entry.path === path);

async function openAdd() {
  const view = renderWithProviders(<ClientsPage />, { url: '/dashboard/clients' });
  await screen.findByRole('grid', { name: 'Applications' });
  await view.user.click(screen.getByRole('button', { name: 'Add application' }));
  return { ...view, dialog: screen.getByRole('dialog', { name: 'Add application' }) };
}

async function openRow(name: string, mode: 'View' | 'Edit') {
  const view = renderWithProviders(<ClientsPage />, { url: '/dashboard/clients' });
  await view.user.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  await view.user.click(screen.getByRole('menuitem', { name: mode }));
  const title = mode === 'View' ? 'View application' : 'Edit application';
  return { ...view, dialog: screen.getByRole('dialog', { name: title }) };
}

// The data grid renders slowly on a loaded runner; a test normally takes a second or two.
describe('Application dialog', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['clients']));
  signedInEachTest({ tokens: clientAdminTokens });

  it('creates a confidential application and shows its secret once, with a copy button', async () => {
    const rows = [builtInClient];
    server.use(
      clientsPage(rows),
      http.post(CLIENTS.create, async ({ request }) => {
        const created = clientRow(2, (await request.json()) as object);
        rows.push(created);
        return HttpResponse.json({ data: { ...created, clientSecret: SECRET } }, { status: 201 });
      }),
    );
    const { user, dialog } = await openAdd();
    const form = within(dialog);
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Billing');
    await user.type(form.getByRole('textbox', { name: 'Client ID' }), 'billing');
    // Lists are often pasted whole; blank lines are not addresses.
    await user.click(form.getByRole('textbox', { name: 'Redirect URIs' }));
    await user.paste('\nhttps://billing.example.com/cb\n\n');
    await user.click(form.getByRole('button', { name: 'Save application' }));

    const shown = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(within(shown).getByRole('textbox', { name: 'Client secret of billing' })).toHaveValue(
      SECRET,
    );
    expect(shown).toHaveTextContent('it will not be shown again');
    await user.click(within(shown).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(within(shown).getByRole('status')).toHaveTextContent('Copied.');

    expect(await bodiesSentTo(CLIENTS.create)).toEqual([
      {
        name: 'Billing',
        clientId: 'billing',
        type: 'confidential',
        redirectUris: ['https://billing.example.com/cb'],
        postLogoutRedirectUris: [],
        webOrigins: [],
        grantTypes: ['authorization_code', 'refresh_token'],
        serviceRoleIds: [],
        idTokenSignedResponseAlg: 'RS256',
        firstParty: false,
        consoleApiAccess: false,
      },
    ]);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText(SECRET)).toBeNull();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it("puts the server's client.id_taken on the Client ID field, keeping what was typed", async () => {
    server.use(
      clientsPage([builtInClient]),
      http.post(CLIENTS.create, () =>
        problemResponse(409, 'client.id_taken', { fields: { clientId: 'client.id_taken' } }),
      ),
    );
    const { user, dialog } = await openAdd();
    const form = within(dialog);
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Console copy');
    const clientId = form.getByRole('textbox', { name: 'Client ID' });
    await user.type(clientId, 'react-client');
    await user.click(form.getByRole('textbox', { name: 'Redirect URIs' }));
    await user.paste('https://a.example/cb');
    await user.click(form.getByRole('button', { name: 'Save application' }));
    await waitFor(() => expect(clientId).toHaveAttribute('aria-invalid', 'true'));
    expect(clientId).toHaveAccessibleDescription('Another application already has this client ID.');
    expect(clientId).toHaveValue('react-client');
    expect(form.queryByRole('alert')).toBeNull();
  });

  it("puts the server's problem with redirect URI 1 on that field, naming its line", async () => {
    server.use(
      clientsPage([builtInClient]),
      http.post(CLIENTS.create, () =>
        problemResponse(400, 'request.invalid', {
          fields: { 'redirectUris.1': 'client.redirect_uri_scheme' },
        }),
      ),
    );
    const { user, dialog } = await openAdd();
    const form = within(dialog);
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Shop');
    await user.type(form.getByRole('textbox', { name: 'Client ID' }), 'shop');
    const uris = form.getByRole('textbox', { name: 'Redirect URIs' });
    // A blank line between: item 1 of the list sent stands on line 3.
    await user.click(uris);
    await user.paste('https://shop.example/cb\n\nhttps://shop.example/other');
    await user.click(form.getByRole('button', { name: 'Save application' }));
    await waitFor(() => expect(uris).toHaveAttribute('aria-invalid', 'true'));
    expect(uris).toHaveAccessibleDescription(/^Line 3: /);
    expect(form.queryByRole('alert')).toBeNull();
  });

  it('refuses an address the contract refuses before sending, on its line', async () => {
    server.use(clientsPage([builtInClient]));
    const { user, dialog } = await openAdd();
    const form = within(dialog);
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Shop');
    await user.type(form.getByRole('textbox', { name: 'Client ID' }), 'shop');
    const origins = form.getByRole('textbox', { name: 'Web origins' });
    await user.click(origins);
    await user.paste('https://shop.example\nhttps://shop.example/path');
    await user.click(form.getByRole('textbox', { name: 'Redirect URIs' }));
    await user.paste('https://shop.example/');
    await user.click(form.getByRole('button', { name: 'Save application' }));
    await waitFor(() => expect(origins).toHaveAttribute('aria-invalid', 'true'));
    expect(origins).toHaveAccessibleDescription(
      'Line 2: Enter an origin only, such as https://app.example.com.',
    );
    expect(sentTo(CLIENTS.create)).toHaveLength(0);
  });

  it('offers client credentials only to confidential applications, service roles only with it', async () => {
    server.use(
      clientsPage([builtInClient]),
      http.post('/api/v1.0/roles/page', () =>
        HttpResponse.json({ data: { data: [], pageIndex: 1, pageSize: 100, totalCount: 0 } }),
      ),
    );
    const { user, dialog } = await openAdd();
    const form = within(dialog);
    const grants = form.getByRole('group', { name: 'Grant types' });
    const credentials = { name: /Client credentials/ };
    expect(form.queryByRole('combobox', { name: 'Service roles' })).toBeNull();
    await user.click(within(grants).getByRole('checkbox', credentials));
    expect(form.getByRole('combobox', { name: 'Service roles' })).toBeVisible();

    await user.click(form.getByRole('combobox', { name: 'Type' }));
    await user.click(screen.getByRole('option', { name: 'Public' }));
    expect(within(grants).queryByRole('checkbox', credentials)).toBeNull();
    expect(form.queryByRole('combobox', { name: 'Service roles' })).toBeNull();
  });

  it("puts the server's refusal of console API access on that switch, keeping it on", async () => {
    server.use(
      clientsPage([builtInClient]),
      http.post(CLIENTS.create, () =>
        problemResponse(403, 'grant.client_trust', {
          params: { permissions: '"tenant:write"' },
          fields: { consoleApiAccess: 'grant.client_trust' },
        }),
      ),
    );
    const { user, dialog } = await openAdd();
    const form = within(dialog);
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Companion');
    await user.type(form.getByRole('textbox', { name: 'Client ID' }), 'companion');
    await user.click(form.getByRole('textbox', { name: 'Redirect URIs' }));
    await user.paste('https://companion.example/cb');
    const access = form.getByRole('switch', { name: 'May call the console API' });
    await user.click(access);
    await user.click(form.getByRole('button', { name: 'Save application' }));
    await waitFor(() => expect(form.getByText(/needs every permission/)).toBeVisible());
    expect(access).toBeChecked();
    expect((await bodiesSentTo(CLIENTS.create))[0]).toMatchObject({ consoleApiAccess: true });
  });

  it('keeps the built-in application fixed but for its name', async () => {
    server.use(clientsPage([builtInClient]));
    const { dialog } = await openRow('Tenant Console', 'Edit');
    expect(within(dialog).getByRole('textbox', { name: 'Client ID' })).toBeDisabled();
    expect(within(dialog).getByRole('combobox', { name: 'Type' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Redirect URIs' })).toBeDisabled();
    for (const name of ['First-party application', 'May call the console API']) {
      expect(within(dialog).getByRole('switch', { name })).toBeDisabled();
      expect(within(dialog).getByRole('switch', { name })).toBeChecked();
    }
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toBeEnabled();
  });

  it('shows the secret an update made, turning a public application confidential', async () => {
    const spa = clientRow(3, { name: 'Shop', clientId: 'shop', type: 'public' });
    server.use(
      clientsPage([builtInClient, spa]),
      http.put(CLIENTS.update, async ({ request }) =>
        HttpResponse.json({
          data: { ...spa, ...((await request.json()) as object), clientSecret: SECRET },
        }),
      ),
    );
    const { user, dialog } = await openRow('Shop', 'Edit');
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(screen.getByRole('option', { name: 'Confidential' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    const shown = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(within(shown).getByRole('textbox', { name: 'Client secret of shop' })).toHaveValue(
      SECRET,
    );
    expect(await bodiesSentTo(CLIENTS.update)).toMatchObject([
      { id: spa.id, type: 'confidential' },
    ]);
  });

  it('rotates the secret only after confirmation, then shows the new one', async () => {
    const billing = clientRow(2, { name: 'Billing', clientId: 'billing' });
    server.use(
      clientsPage([builtInClient, billing]),
      http.post(CLIENTS.rotate(billing.id), () =>
        HttpResponse.json({ data: { clientSecret: SECRET } }),
      ),
    );
    const { user, dialog } = await openRow('Billing', 'Edit');
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    const question = screen.getByRole('dialog', { name: 'Rotate secret' });
    expect(question).toHaveTextContent('The current secret stops working at once');
    expect(sentTo(CLIENTS.rotate(billing.id))).toHaveLength(0);
    await user.click(within(question).getByRole('button', { name: 'Rotate secret' }));
    const shown = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(within(shown).getByRole('textbox')).toHaveValue(SECRET);
    expect(sentTo(CLIENTS.rotate(billing.id))).toHaveLength(1);
  });

  it("shows a quick start with the tenant's issuer and code for this client", async () => {
    const billing = clientRow(2, { name: 'Billing', clientId: 'billing' });
    server.use(clientsPage([builtInClient, billing]), meAnswer);
    const { user, dialog } = await openRow('Billing', 'View');
    await user.click(within(dialog).getByRole('button', { name: 'Quick start' }));
    const issuer = `${window.location.origin}/realms/demo`;
    expect(await within(dialog).findByRole('textbox', { name: 'Issuer URL' })).toHaveValue(issuer);
    expect(within(dialog).getByRole('textbox', { name: 'Discovery URL' })).toHaveValue(
      `${issuer}/.well-known/openid-configuration`,
    );
    const code = within(dialog).getByRole('region', { name: 'Code for openid-client' });
    expect(code).toHaveTextContent("'billing'");
    expect(code).toHaveTextContent("redirect_uri: 'https://app2.example.com/callback'");
    await user.click(within(dialog).getByRole('button', { name: 'Copy Code for openid-client' }));
    expect(await navigator.clipboard.readText()).toContain('client.buildAuthorizationUrl');
  });
});
