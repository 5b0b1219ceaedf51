import UploadFileIcon from '@mui/icons-material/UploadFile';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import type { User } from '@tc/contract/users';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ListPage } from '../../../components/entity-list/list-page';
import { StatusChip } from '../../../components/status-chip';
import { decodeClaims } from '../../../lib/jwt';
import { paths } from '../../../lib/paths';
import { useCan } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import { UserDialog } from './user-dialog';
import { UserSecurityDialog } from './user-security-dialog';

const fullName = (user: User) => `${user.firstName} ${user.lastName}`;

/** Opens the CSV import; its label is the import screen's text, English until that loads. */
function ImportButton() {
  const { t } = useTranslation('userImport', { useSuspense: false });
  return (
    <Button
      component={RouterLink}
      to={paths.usersImport}
      variant="outlined"
      startIcon={<UploadFileIcon />}
    >
      {t('openImport', { defaultValue: 'Import' })}
    </Button>
  );
}

/** The signed-in user's id: the access token's `sub`. */
function useOwnId(): string | null {
  const session = useSession();
  return useMemo(
    () => (session ? (decodeClaims(session.accessToken)?.sub ?? null) : null),
    [session],
  );
}

/**
 * Users: name, e-mail, role and status, sorted by e-mail (names repeat, addresses do not);
 * invited users who have not set a password yet are marked. An administrator cannot delete
 * themself (the server refuses), so their own row offers no Delete. With users:write a row's
 * menu also opens the user's sessions and second factors.
 */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const ownId = useOwnId();
  const canWrite = useCan('users:write');
  const [securityOf, setSecurityOf] = useState<User | null>(null);
  const rowActions = useCallback(
    (user: User) =>
      canWrite ? [{ label: t('sessionsAndSecurity'), onSelect: () => setSecurityOf(user) }] : [],
    [canWrite, t],
  );
  const columns = useMemo<GridColDef<User>[]>(
    () => [
      {
        // Shown as "first last" and sorted by the first name, so the order matches what is read.
        field: 'firstName',
        headerName: t('name'),
        flex: 1,
        minWidth: 160,
        valueGetter: (_value, row) => fullName(row),
      },
      { field: 'email', headerName: t('email'), flex: 1.5, minWidth: 200 },
      { field: 'role', headerName: t('role'), flex: 1, minWidth: 120 },
      {
        field: 'status',
        headerName: t('status'),
        width: 190,
        renderCell: ({ row }) => (
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1, height: '100%' }}>
            <StatusChip status={row.status} />
            {row.invited ? (
              <Chip size="small" label={t('invited')} color="primary" variant="outlined" />
            ) : null}
          </Stack>
        ),
      },
    ],
    [t],
  );
  return (
    <>
      <ListPage<User>
        entity="users"
        ns="users"
        columns={columns}
        writePermission="users:write"
        rowName={fullName}
        csvExport={{ path: '/users/export', fileName: 'users.csv' }}
        toolbar={canWrite ? <ImportButton /> : undefined}
        canDelete={(user) => user.id !== ownId}
        rowActions={rowActions}
        renderDialog={(state, close) => (
          <UserDialog
            {...state}
            own={state.row !== undefined && state.row.id === ownId}
            canWrite={canWrite}
            onClose={close}
          />
        )}
      />
      {securityOf ? (
        <UserSecurityDialog user={securityOf} onClose={() => setSecurityOf(null)} />
      ) : null}
    </>
  );
}
