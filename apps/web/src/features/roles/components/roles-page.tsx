import type { GridColDef } from '@mui/x-data-grid';
import type { Role } from '@tc/contract/roles';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../../components/entity-list/list-page';
import { StatusChip } from '../../../components/status-chip';
import { RoleDialog } from './role-dialog';

/** Roles: name, description, status, the permissions it grants. */
export default function RolesPage() {
  const { t } = useTranslation('roles');
  const columns = useMemo<GridColDef<Role>[]>(
    () => [
      { field: 'name', headerName: t('name'), flex: 1, minWidth: 140 },
      {
        field: 'description',
        headerName: t('description'),
        flex: 2,
        minWidth: 180,
        sortable: false,
      },
      {
        field: 'status',
        headerName: t('status'),
        width: 120,
        renderCell: ({ row }) => <StatusChip status={row.status} />,
      },
      {
        field: 'permissions',
        headerName: t('permissions'),
        flex: 2,
        minWidth: 180,
        sortable: false,
        valueGetter: (_value, row) => row.permissions.join(', '),
      },
      { field: 'userCount', headerName: t('users'), width: 100, sortable: false, type: 'number' },
    ],
    [t],
  );
  return (
    <ListPage<Role>
      entity="roles"
      ns="roles"
      columns={columns}
      writePermission="roles:write"
      rowName={(role) => role.name}
      canDelete={(role) => !role.system}
      renderDialog={(state, close) => <RoleDialog {...state} onClose={close} />}
    />
  );
}
