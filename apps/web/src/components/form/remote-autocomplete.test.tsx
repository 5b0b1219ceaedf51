import { screen, waitFor, within } from '@testing-library/react';
import type { PageRequest } from '@tc/contract/paging';
import type { Role } from '@tc/contract/roles';
import { http, HttpResponse } from 'msw';
import { useForm } from 'react-hook-form';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEnglish, renderWithProviders } from '../../test/render';
import { role } from '../../test/roles-harness';
import { bodiesSentTo, seenRequests, server } from '../../test/server';
import { signedInEachTest } from '../../test/session';
import type { Option } from './form-fields';
import { RemoteAutocomplete } from './remote-autocomplete';

const PAGE = '/api/v1.0/roles/page';
/** 57 roles, "Role 01" … "Role 57": more than one picker page. */
const ROLES = Array.from({ length: 57 }, (_, i) =>
  role(i + 1, { name: `Role ${String(i + 1).padStart(2, '0')}` }),
);
const roleOption = (row: Role): Option => ({ value: row.id, label: row.name, detail: 'role' });

/** The roles API over ROLES: the page route searches names, GET answers one role or 404. */
function rolesApi() {
  return [
    http.post(PAGE, async ({ request }) => {
      const body = (await request.json()) as PageRequest;
      const search = body.filter.search?.toLowerCase() ?? '';
      const matching = ROLES.filter((row) => row.name.toLowerCase().includes(search));
      return HttpResponse.json({
        data: {
          data: matching.slice(0, body.pageSize),
          pageIndex: 1,
          pageSize: body.pageSize,
          totalCount: matching.length,
        },
      });
    }),
    http.get('/api/v1.0/roles/:id', ({ params }) => {
      const found = ROLES.find((row) => row.id === params.id);
      return found
        ? HttpResponse.json({ data: found })
        : HttpResponse.json({ status: 404, title: 'Not Found' }, { status: 404 });
    }),
  ];
}

interface Form {
  roleIds: string[];
  roleId: string;
}

/** Both kinds of picker in one form; Send hands the form's values to `sent`. */
function PickerForm(props: {
  defaults: Form;
  known?: Option[];
  sent: Form[];
  searchable?: boolean;
}) {
  const form = useForm<Form>({ defaultValues: props.defaults });
  return (
    <form onSubmit={form.handleSubmit((values) => void props.sent.push(values))}>
      <RemoteAutocomplete
        control={form.control}
        name="roleIds"
        label="Roles"
        multiple
        entity="roles"
        sortField="name"
        toOption={roleOption}
        known={props.known}
        searchable={props.searchable}
        placeholder="Choose"
      />
      <RemoteAutocomplete
        control={form.control}
        name="roleId"
        label="Main role"
        entity="roles"
        sortField="name"
        toOption={roleOption}
        known={props.known}
        searchable={props.searchable}
      />
      <button type="submit">Send</button>
    </form>
  );
}

const pageRequests = () => bodiesSentTo(PAGE) as Promise<PageRequest[]>;

describe('RemoteAutocomplete', { timeout: 30_000 }, () => {
  beforeAll(() => loadEnglish([]));
  signedInEachTest();

  it('searches the server as one types and chooses a row beyond the first page', async () => {
    server.use(...rolesApi());
    const sent: Form[] = [];
    const { user } = renderWithProviders(
      <PickerForm defaults={{ roleIds: [], roleId: '' }} sent={sent} />,
    );
    const roles = screen.getByRole('combobox', { name: 'Roles' });
    await user.click(roles);
    // Opening asks for the first short page in the list's order, and says there are more.
    const listbox = await screen.findByRole('listbox');
    expect(await within(listbox).findAllByRole('option')).toHaveLength(20);
    expect(within(listbox).queryByRole('option', { name: /Role 42/ })).toBeNull();
    expect(screen.getByText('The first 20 of 57: type to find the others.')).toBeVisible();
    expect(await pageRequests()).toEqual([
      { pageIndex: 1, pageSize: 20, filter: {}, listSort: { field: 'name', direction: 0 } },
    ]);

    await user.type(roles, 'ole 42');
    const option = await screen.findByRole('option', { name: 'Role 42 role' });
    // One request for the whole word, sent after the pause, not one per key.
    expect((await pageRequests()).map((request) => request.filter)).toEqual([
      {},
      { search: 'ole 42' },
    ]);
    await user.click(option);
    expect(screen.getByRole('button', { name: 'Role 42' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent).toEqual([{ roleIds: [ROLES[41]!.id], roleId: '' }]));
  });

  it('says that it searches while the server answers, then that nothing matches', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.post(PAGE, async () => {
        await answered;
        return HttpResponse.json({ data: { data: [], pageIndex: 1, pageSize: 20, totalCount: 0 } });
      }),
    );
    const { user } = renderWithProviders(
      <PickerForm defaults={{ roleIds: [], roleId: '' }} sent={[]} />,
    );
    const main = screen.getByRole('combobox', { name: 'Main role' });
    await user.type(main, 'nobody');
    expect(await screen.findByText('Searching...')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Searching...' })).toBeVisible();
    expect(screen.queryByText('No matches')).toBeNull();
    answer();
    expect(await screen.findByText('No matches')).toBeVisible();
    expect(screen.queryByRole('option')).toBeNull();
    expect((await pageRequests()).at(-1)?.filter).toEqual({ search: 'nobody' });
  });

  it('shows chosen values by name: known ones at once, others fetched by id', async () => {
    server.use(...rolesApi());
    const sent: Form[] = [];
    const [first, far] = [ROLES[0]!, ROLES[55]!];
    const { user } = renderWithProviders(
      <PickerForm
        defaults={{ roleIds: [first.id, far.id], roleId: far.id }}
        known={[{ value: first.id, label: 'Role 01' }]}
        sent={sent}
      />,
    );
    expect(screen.getByRole('button', { name: 'Role 01' })).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Role 56' })).toBeVisible();
    // The input takes the fetched label in an effect after the chip shows it.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Main role' })).toHaveValue('Role 56'),
    );
    // Only the unknown one was asked for, once for both fields; no list was searched.
    const gets = seenRequests().filter((entry) => entry.method === 'GET');
    expect(gets.map((entry) => entry.path)).toEqual([`/api/v1.0/roles/${far.id}`]);
    expect(await pageRequests()).toEqual([]);

    // Removing a chip and clearing the single field leave an empty list and ''.
    await user.click(
      within(screen.getByRole('button', { name: 'Role 01' })).getByTestId('CancelIcon'),
    );
    await user.clear(screen.getByRole('combobox', { name: 'Main role' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent).toEqual([{ roleIds: [far.id], roleId: '' }]));
  });

  it('without the right to read the list: chosen ids as they are, nothing fetched', async () => {
    const id = ROLES[3]!.id;
    const { user } = renderWithProviders(
      <PickerForm defaults={{ roleIds: [id], roleId: '' }} sent={[]} searchable={false} />,
    );
    expect(screen.getByRole('button', { name: id })).toBeVisible();
    await user.click(screen.getByRole('combobox', { name: 'Roles' }));
    expect(await screen.findByText('No matches')).toBeVisible();
    expect(seenRequests()).toEqual([]);
  });
});
