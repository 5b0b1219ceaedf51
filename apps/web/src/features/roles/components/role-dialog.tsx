import type { Permission } from '@tc/contract/permissions-api';
import { createRoleSchema, updateRoleSchema, type Role } from '@tc/contract/roles';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import {
  CrudDialog,
  dialogLabels,
  type DialogMode,
} from '../../../components/entity-list/crud-dialog';
import { StatusInput, TextInput, type Option } from '../../../components/form/form-fields';
import { RemoteAutocomplete } from '../../../components/form/remote-autocomplete';
import { useDialogSave } from '../../../lib/entity-api';

type RoleForm = z.input<typeof updateRoleSchema>;

const permissionOption = (permission: Permission): Option => ({
  value: permission.id,
  label: permission.name,
});

/** The role's permissions with the names its row carries, in the same order as the ids. */
const knownPermissions = (row: Role | undefined): Option[] =>
  (row?.permissionIds ?? []).map((id, index) => ({ value: id, label: row!.permissions[index]! }));

/** Add, edit, view or delete a role ("Add new role", "Edit role", "View role"). */
export function RoleDialog(props: { mode: DialogMode; row?: Role; onClose: () => void }) {
  const { t } = useTranslation(['roles', 'lists']);
  const { mode, row } = props;
  const save = useDialogSave('roles', mode, row?.id);
  const builtIn = row?.system ?? false;

  return (
    <CrudDialog<RoleForm, unknown>
      mode={mode}
      onClose={props.onClose}
      {...dialogLabels(t, mode)}
      width={400}
      schema={mode === 'add' ? createRoleSchema : updateRoleSchema}
      defaultValues={{
        ...(row ? { id: row.id } : {}),
        name: row?.name ?? '',
        description: row?.description ?? '',
        status: row?.status ?? 'active',
        permissionIds: row?.permissionIds ?? [],
      }}
      onConfirm={(values) => save.mutateAsync(values)}
      successMessage={t(mode === 'delete' ? 'lists:deleted' : 'lists:saved')}
      deleteQuestion={t('deleteQuestion')}
    >
      {({ control }, disabled) => (
        <>
          <TextInput
            control={control}
            name="name"
            label={t('name')}
            required
            autoFocus={mode === 'add'}
            disabled={disabled || builtIn}
            helperText={builtIn ? t('builtIn') : undefined}
          />
          <TextInput
            control={control}
            name="description"
            label={t('description')}
            multiline
            disabled={disabled}
          />
          <StatusInput
            control={control}
            name="status"
            label={t('status')}
            disabled={disabled || builtIn}
          />
          <RemoteAutocomplete
            control={control}
            name="permissionIds"
            label={t('permissions')}
            multiple
            entity="permissions"
            sortField="name"
            toOption={permissionOption}
            known={knownPermissions(row)}
            placeholder={t('lists:choose')}
            disabled={disabled}
          />
        </>
      )}
    </CrudDialog>
  );
}
