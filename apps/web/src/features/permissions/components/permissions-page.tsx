import LockIcon from '@mui/icons-material/Lock';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import type { Permission } from '@tc/contract/permissions-api';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../../components/entity-list/list-page';
import { PermissionDialog } from './permission-dialog';

/** Permissions: a name and the roles holding it; system ones locked. */
export default function PermissionsPage() {
  const { t } = useTranslation('permissions');
  const columns = useMemo<GridColDef<Permission>[]>(
    () => [
      {
        field: 'name',
        headerName: t('name'),
        flex: 1,
        minWidth: 180,
        renderCell: ({ row }) => (
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1, height: '100%' }}>
            <span>{row.name}</span>
            {row.system ? (
              <Tooltip title={t('system')}>
                <LockIcon fontSize="inherit" color="action" aria-label={t('system')} role="img" />
              </Tooltip>
            ) : null}
          </Stack>
        ),
      },
      {
        field: 'description',
        headerName: t('description'),
        flex: 1,
        minWidth: 160,
        sortable: false,
      },
      {
        field: 'roles',
        headerName: t('roles'),
        flex: 1,
        minWidth: 160,
        sortable: false,
        valueGetter: (_value, row) => row.roles.join(', '),
      },
    ],
    [t],
  );
  return (
    <ListPage<Permission>
      entity="permissions"
      ns="permissions"
      columns={columns}
      writePermission="permissions:write"
      rowName={(permission) => permission.name}
      canDelete={(permission) => !permission.system}
      renderDialog={(state, close) => <PermissionDialog {...state} onClose={close} />}
    />
  );
}
