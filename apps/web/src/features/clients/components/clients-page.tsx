import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import type { Client } from '@tc/contract/clients';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../../components/entity-list/list-page';
import { ClientDialog } from './client-dialog';

/**
 * Applications: the OAuth / OpenID Connect clients that may sign users in with this tenant.
 * The console's own (built-in) client is marked and cannot be deleted.
 */
export default function ClientsPage() {
  const { t, i18n } = useTranslation('clients');
  const language = i18n.resolvedLanguage ?? 'en';
  const columns = useMemo<GridColDef<Client>[]>(() => {
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
    return [
      {
        field: 'name',
        headerName: t('name'),
        flex: 1,
        minWidth: 200,
        renderCell: ({ row }) => (
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1, height: '100%' }}>
            <span>{row.name}</span>
            {row.builtIn ? (
              <Chip size="small" label={t('builtIn')} color="primary" variant="outlined" />
            ) : null}
          </Stack>
        ),
      },
      { field: 'clientId', headerName: t('clientId'), flex: 1, minWidth: 160 },
      {
        field: 'type',
        headerName: t('type'),
        width: 140,
        valueGetter: (_value, row) => t(`types.${row.type}`),
      },
      {
        field: 'grantTypes',
        headerName: t('grantTypes'),
        flex: 1.5,
        minWidth: 200,
        sortable: false,
        valueGetter: (_value, row) => row.grantTypes.join(', '),
      },
      {
        field: 'createdAt',
        headerName: t('created'),
        width: 140,
        valueGetter: (_value, row) => date.format(new Date(row.createdAt)),
      },
    ];
  }, [t, language]);
  return (
    <ListPage<Client>
      entity="clients"
      ns="clients"
      columns={columns}
      writePermission="clients:write"
      rowName={(client) => client.name}
      canDelete={(client) => !client.builtIn}
      renderDialog={(state, close) => <ClientDialog {...state} onClose={close} />}
    />
  );
}
