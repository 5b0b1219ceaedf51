import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import HowToRegOutlinedIcon from '@mui/icons-material/HowToRegOutlined';
import EmailOutlinedIcon from '@mui/icons-material/EmailOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { DashboardFigures } from '@tc/contract/dashboard';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Formatters } from '../format';

const grid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(5, 1fr)' },
} as const;

function Figure(props: { label: string; value: ReactNode; icon: ReactNode; testId: string }) {
  const labelId = useId();
  return (
    <Paper
      variant="outlined"
      role="group"
      aria-labelledby={labelId}
      data-testid={props.testId}
      sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 2, minWidth: 0 }}
    >
      <Box sx={{ color: 'primary.main', display: 'flex' }} aria-hidden>
        {props.icon}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography id={labelId} variant="body2" color="text.secondary" noWrap>
          {props.label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} noWrap>
          {props.value}
        </Typography>
      </Box>
    </Paper>
  );
}

/** The tenant's figures: projects, total budget, active and invited users, roles. */
export function FigureCards({
  figures,
  format,
}: {
  figures: DashboardFigures | undefined;
  format: Formatters;
}) {
  const { t } = useTranslation('dashboard');
  const show = (value: (f: DashboardFigures) => string) =>
    figures ? value(figures) : <Skeleton width="60%" />;
  return (
    <Box sx={grid}>
      <Figure
        testId="figure-projects"
        label={t('figures.projects')}
        icon={<FolderOutlinedIcon />}
        value={show((f) => format.count(f.projects))}
      />
      <Figure
        testId="figure-budget"
        label={t('figures.totalBudget')}
        icon={<AccountBalanceWalletOutlinedIcon />}
        value={show((f) => format.budget(f.totalBudget))}
      />
      <Figure
        testId="figure-active-users"
        label={t('figures.activeUsers')}
        icon={<HowToRegOutlinedIcon />}
        value={show((f) => format.count(f.activeUsers))}
      />
      <Figure
        testId="figure-invited-users"
        label={t('figures.invitedUsers')}
        icon={<EmailOutlinedIcon />}
        value={show((f) => format.count(f.invitedUsers))}
      />
      <Figure
        testId="figure-roles"
        label={t('figures.roles')}
        icon={<AdminPanelSettingsOutlinedIcon />}
        value={show((f) => format.count(f.roles))}
      />
    </Box>
  );
}
