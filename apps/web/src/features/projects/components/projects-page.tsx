import Avatar from '@mui/material/Avatar';
import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import type { Project } from '@tc/contract/projects';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../../components/entity-list/list-page';
import { ProjectDialog } from './project-dialog';

/**
 * Projects, stored, listed and searched (the earlier client's page was a stub). The
 * ID column shows the project number, the tenant's own identifier for a project; the
 * row's position stays the list page's first column.
 */
export default function ProjectsPage() {
  const { t } = useTranslation('projects');
  const columns = useMemo<GridColDef<Project>[]>(
    () => [
      { field: 'projectNumber', headerName: t('id'), width: 140 },
      {
        field: 'name',
        headerName: t('name'),
        flex: 1,
        minWidth: 180,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', height: '100%' }}>
            {row.logoUrl ? (
              <Avatar variant="rounded" src={row.logoUrl} alt="" sx={{ width: 28, height: 28 }} />
            ) : null}
            <span>{row.name}</span>
          </Stack>
        ),
      },
      {
        field: 'description',
        headerName: t('description'),
        flex: 2,
        minWidth: 200,
        sortable: false,
      },
      {
        field: 'owner',
        headerName: t('owner'),
        flex: 1,
        minWidth: 160,
        valueGetter: (_value, row) => row.owner ?? '',
      },
    ],
    [t],
  );
  return (
    <ListPage<Project>
      entity="projects"
      ns="projects"
      columns={columns}
      writePermission="projects:write"
      rowName={(project) => project.name}
      csvExport={{ path: '/projects/export', fileName: 'projects.csv' }}
      renderDialog={(state, close) => <ProjectDialog {...state} onClose={close} />}
    />
  );
}
