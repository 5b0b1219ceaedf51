import type { GridColDef } from '@mui/x-data-grid';
import type { Page } from '@tc/contract/paging';
import { createRoleSchema, updateRoleSchema, type Role } from '@tc/contract/roles';
import { http, HttpResponse } from 'msw';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { CrudDialog, dialogLabels } from '../components/entity-list/crud-dialog';
import { ListPage, type DialogState } from '../components/entity-list/list-page';
import { TextInput } from '../components/form/form-fields';
import { useDialogSave } from '../lib/entity-api';

type RoleForm = z.input<typeof updateRoleSchema>;

export const role = (index: number, patch: Partial<Role> = {}): Role => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  name: `Role ${index}`,
  description: null,
  status: 'active',
  system: false,
  permissionIds: [],
  permissions: [],
  userCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...patch,
});

/** A page answer as the server shapes it: `{ data: { data, pageIndex, pageSize, totalCount } }`. */
export const pageAnswer = (rows: Role[], request: Partial<Page<Role>> = {}) =>
  HttpResponse.json({
    data: { data: rows, pageIndex: 1, pageSize: 10, totalCount: rows.length, ...request },
  });

/** The roles page route answering the given rows, whatever is asked. */
export const rolesPage = (rows: Role[], totalCount = rows.length) =>
  http.post('/api/v1.0/roles/page', () => pageAnswer(rows, { totalCount }));

export const PAGE_PATH = '/api/v1.0/roles/page';

function RoleDialog({ mode, row, onClose }: DialogState<Role> & { onClose: () => void }) {
  const { t } = useTranslation(['roles', 'lists']);
  const save = useDialogSave('roles', mode, row?.id);
  return (
    <CrudDialog<RoleForm, unknown>
      mode={mode}
      onClose={onClose}
      {...dialogLabels(t, mode)}
      width={400}
      schema={mode === 'add' ? createRoleSchema : updateRoleSchema}
      defaultValues={{
        ...(row ? { id: row.id } : {}),
        name: row?.name ?? '',
        description: row?.description ?? '',
      }}
      onConfirm={(values) => save.mutateAsync(values)}
      successMessage={t(mode === 'delete' ? 'lists:deleted' : 'lists:saved')}
      deleteQuestion={t('deleteQuestion')}
    >
      {({ control }, disabled) => (
        <>
          <TextInput control={control} name="name" label={t('name')} required disabled={disabled} />
          <TextInput
            control={control}
            name="description"
            label={t('description')}
            disabled={disabled}
          />
        </>
      )}
    </CrudDialog>
  );
}

const columns: GridColDef<Role>[] = [
  { field: 'name', headerName: 'Name', flex: 1 },
  { field: 'status', headerName: 'Status', width: 120 },
];

/**
 * A list screen built only from the shared pieces (ListPage, CrudDialog, the entity API) over
 * the roles API, so their tests do not depend on any one feature's extra fields.
 */
export function RolesList() {
  return (
    <ListPage<Role>
      entity="roles"
      ns="roles"
      columns={columns}
      writePermission="roles:write"
      rowName={(row) => row.name}
      canDelete={(row) => !row.system}
      renderDialog={(state, close) => <RoleDialog {...state} onClose={close} />}
    />
  );
}
