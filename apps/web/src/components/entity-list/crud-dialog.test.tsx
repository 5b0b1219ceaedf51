import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { problemResponse } from '../../test/problems';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { pageAnswer, PAGE_PATH, role, RolesList } from '../../test/roles-harness';
import { bodiesSentTo, seenRequests, server } from '../../test/server';
import { accessToken, signedInEachTest } from '../../test/session';
import type { Role } from '@tc/contract/roles';

const CREATE_PATH = '/api/v1.0/roles/create';
const TAKEN = 'A role with this name already exists.';

/** The roles API over a list the test can change: page answers what `rows` holds now. */
function rolesServer(rows: Role[]) {
  server.use(http.post(PAGE_PATH, () => pageAnswer(rows)));
  return rows;
}

async function openAdd() {
  const view = renderWithProviders(<RolesList />, { url: '/roles' });
  await screen.findByRole('grid', { name: 'Roles' });
  await view.user.click(screen.getByRole('button', { name: 'Add new' }));
  return { ...view, dialog: screen.getByRole('dialog', { name: 'Add new role' }) };
}

const sentTo = (path: string) => seenRequests().filter((entry) => entry.path === path);

// The data grid renders slowly on a loaded runner; a test normally takes a second or two.
describe('CrudDialog', { timeout: 60_000 }, () => {
  beforeAll(() => loadEnglish(['roles']));
  signedInEachTest({
    tokens: { access_token: accessToken({ permissions: ['roles:write'] }), refresh_token: 'r' },
  });

  it("refuses a missing required field with the contract's message, sending nothing", async () => {
    rolesServer([role(1)]);
    const { user, dialog } = await openAdd();
    await user.click(within(dialog).getByRole('button', { name: 'Save role' }));
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    // The contract's wording is its own; what matters is that the field says something.
    expect(name).toHaveAccessibleDescription(/\w/);
    expect(sentTo(CREATE_PATH)).toHaveLength(0);
  });

  it('a successful create sends the form, closes the dialog and refreshes the list', async () => {
    const rows = rolesServer([role(1)]);
    server.use(
      http.post(CREATE_PATH, async ({ request }) => {
        const created = role(2, (await request.json()) as Partial<Role>);
        rows.push(created);
        return HttpResponse.json({ data: created });
      }),
    );
    const { user, dialog } = await openAdd();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '  Auditor ');
    await user.click(within(dialog).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The contract trims the name before it is sent.
    expect(await bodiesSentTo(CREATE_PATH)).toEqual([
      { name: 'Auditor', description: '', status: 'active' },
    ]);
    expect(await screen.findByText('Auditor')).toBeInTheDocument();
    expect(sentTo(PAGE_PATH)).toHaveLength(2);
  });

  it("puts a 409's field error on that field and keeps what was typed", async () => {
    rolesServer([role(1)]);
    server.use(
      http.post(CREATE_PATH, () =>
        problemResponse(409, 'role.name_taken', { fields: { name: 'role.name_taken' } }),
      ),
    );
    const { user, dialog } = await openAdd();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.type(name, 'Admin');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Runs it all');
    await user.click(within(dialog).getByRole('button', { name: 'Save role' }));
    expect(await within(dialog).findByText(TAKEN)).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveValue('Admin');
    expect(within(dialog).getByRole('textbox', { name: 'Description' })).toHaveValue('Runs it all');
    // On the field, not repeated above the form.
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it("shows a 400 problem's detail above the form and stays open", async () => {
    rolesServer([role(1)]);
    const detail = 'Choose permissions of this tenant.';
    server.use(http.post(CREATE_PATH, () => problemResponse(400, 'permissions.not_in_tenant')));
    const { user, dialog } = await openAdd();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Auditor');
    await user.click(within(dialog).getByRole('button', { name: 'Save role' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(detail);
    expect(screen.getByRole('dialog', { name: 'Add new role' })).toBeVisible();
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Auditor');
  });

  it('delete asks first, sends nothing until confirmed, then deletes and refreshes', async () => {
    const ops = role(7, { name: 'Ops' });
    const rows = rolesServer([role(1), ops]);
    const deletePath = `/api/v1.0/roles/delete/${ops.id}`;
    server.use(
      http.post(deletePath, () => {
        rows.splice(rows.indexOf(ops), 1);
        return HttpResponse.json({ data: { id: ops.id } });
      }),
    );
    const { user } = renderWithProviders(<RolesList />, { url: '/roles' });
    await user.click(await screen.findByRole('button', { name: 'Actions for Ops' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete role' });
    expect(within(dialog).getByText('Are you sure you want to delete this role?')).toBeVisible();
    expect(sentTo(deletePath)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentTo(deletePath)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Ops')).toBeNull());
  });

  it('cancelling a delete sends nothing and keeps the row', async () => {
    rolesServer([role(7, { name: 'Ops' })]);
    const { user } = renderWithProviders(<RolesList />, { url: '/roles' });
    await user.click(await screen.findByRole('button', { name: 'Actions for Ops' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete role' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(seenRequests().filter(({ path }) => path.includes('/delete/'))).toHaveLength(0);
    expect(screen.getByText('Ops')).toBeInTheDocument();
  });
});
