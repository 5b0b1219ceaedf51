import {
  createPermissionSchema,
  updatePermissionSchema,
  type Permission,
} from '@tc/contract/permissions-api';
import type { Role } from '@tc/contract/roles';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  CrudDialog,
  dialogLabels,
  type DialogMode,
} from '../../../components/entity-list/crud-dialog';
import { TextInput, type Option } from '../../../components/form/form-fields';
import { RemoteAutocomplete } from '../../../components/form/remote-autocomplete';
import { useDialogSave } from '../../../lib/entity-api';

type PermissionForm = z.input<typeof updatePermissionSchema>;

const roleOption = (role: Role): Option => ({ value: role.id, label: role.name });

/** The roles holding the permission, with the names its row carries. */
const knownRoles = (row: Permission | undefined): Option[] =>
  (row?.roleIds ?? []).map((id, index) => ({ value: id, label: row!.roles[index]! }));

/** Add, edit, view or delete a permission: its name and the roles that hold it. */
export function PermissionDialog(props: {
  mode: DialogMode;
  row?: Permission;
  onClose: () => void;
}) {
  const { t } = useTranslation(['permissions', 'lists']);
  const { mode, row } = props;
  const save = useDialogSave('permissions', mode, row?.id);
  const system = row?.system ?? false;

  return (
    <CrudDialog<PermissionForm, unknown>
      mode={mode}
      onClose={props.onClose}
      {...dialogLabels(t, mode)}
      width={400}
      schema={mode === 'add' ? createPermissionSchema : updatePermissionSchema}
      defaultValues={{
        ...(row ? { id: row.id } : {}),
        name: row?.name ?? '',
        description: row?.description ?? '',
        roleIds: row?.roleIds ?? [],
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
            placeholder="reports:export"
            disabled={disabled || system}
            helperText={system ? t('systemLocked') : undefined}
          />
          <TextInput
            control={control}
            name="description"
            label={t('description')}
            multiline
            disabled={disabled}
          />
          <RemoteAutocomplete
            control={control}
            name="roleIds"
            label={t('roles')}
            required
            multiple
            entity="roles"
            sortField="name"
            toOption={roleOption}
            known={knownRoles(row)}
            placeholder={t('lists:choose')}
            disabled={disabled}
          />
        </>
      )}
    </CrudDialog>
  );
}
