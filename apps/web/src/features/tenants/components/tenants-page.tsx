import ViewListIcon from '@mui/icons-material/ViewList';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import type { Tenant } from '@tc/contract/tenants';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ListPage } from '../../../components/entity-list/list-page';
import { TenantCards } from './tenant-cards';
import { TenantDialog } from './tenant-dialog';
import { DomainLink, LoginButton, TenantAvatar } from './tenant-links';

type View = 'list' | 'cards';
const VIEW_PARAM = 'view';

/** List or cards, kept in the address beside page, sort and search, so a reload keeps it. */
function useView(): [View, (view: View) => void] {
  const [params, setParams] = useSearchParams();
  const view: View = params.get(VIEW_PARAM) === 'cards' ? 'cards' : 'list';
  const setView = (next: View) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'cards') updated.set(VIEW_PARAM, next);
        else updated.delete(VIEW_PARAM);
        return updated;
      },
      { replace: true },
    );
  return [view, setView];
}

/**
 * Tenants, for super administrators only: list and card views, each
 * tenant with its logo, name, domain link and a "Log in" to its own console.
 */
export default function TenantsPage() {
  const { t, i18n } = useTranslation(['tenants', 'lists']);
  const [view, setView] = useView();
  const dates = useMemo(
    () => new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium' }),
    [i18n.resolvedLanguage],
  );

  const columns = useMemo<GridColDef<Tenant>[]>(
    () => [
      {
        field: 'name',
        headerName: t('name'),
        flex: 1,
        minWidth: 180,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', height: '100%' }}>
            <TenantAvatar tenant={row} />
            <Typography variant="body2" noWrap>
              {row.name}
            </Typography>
          </Stack>
        ),
      },
      {
        field: 'domain',
        headerName: t('domain'),
        flex: 1,
        minWidth: 180,
        renderCell: ({ row }) => <DomainLink domain={row.domain} />,
      },
      {
        field: 'allowSignup',
        headerName: t('signup'),
        width: 110,
        sortable: false,
        valueGetter: (_value, row) => t(row.allowSignup ? 'lists:yes' : 'lists:no'),
      },
      {
        field: 'createdAt',
        headerName: t('created'),
        width: 140,
        valueGetter: (_value, row) => dates.format(new Date(row.createdAt)),
      },
      {
        field: 'adminAccess',
        headerName: t('adminAccess'),
        width: 150,
        sortable: false,
        disableColumnMenu: true,
        renderCell: ({ row }) => <LoginButton tenant={row} />,
      },
    ],
    [t, dates],
  );

  const toolbar = (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={view}
      onChange={(_event, next: View | null) => next && setView(next)}
      aria-label={t('viewAs')}
    >
      <ToggleButton value="list" aria-label={t('lists:listView')}>
        <ViewListIcon fontSize="small" />
      </ToggleButton>
      <ToggleButton value="cards" aria-label={t('lists:cardView')}>
        <ViewModuleIcon fontSize="small" />
      </ToggleButton>
    </ToggleButtonGroup>
  );

  return (
    <ListPage<Tenant>
      entity="tenants"
      ns="tenants"
      columns={columns}
      writePermission="superAdmin"
      rowName={(tenant) => tenant.name}
      toolbar={toolbar}
      renderCards={
        view === 'cards' ? (rows, menu) => <TenantCards rows={rows} menu={menu} /> : undefined
      }
      renderDialog={(state, close) => <TenantDialog {...state} onClose={close} />}
    />
  );
}
