import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ONBOARDING_PERMISSIONS } from '@tc/contract/onboarding';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../lib/paths';
import { describeFailure } from '../../../lib/problem-text';
import { useSession } from '../../../lib/use-session';
import { useDashboard } from '../api/get-dashboard';
import { useOnboardingRedirect } from '../api/use-onboarding-redirect';
import { formatters } from '../format';
import { DashboardCharts } from './dashboard-charts';
import { FigureCards } from './figure-cards';
import { RecentActivity } from './recent-activity';

/**
 * Home (/home): the tenant's live dashboard. Change events refresh it
 * (lib/live-events.ts invalidates ['dashboard']). A tenant not set up yet opens the onboarding.
 */
export default function HomePage() {
  const { t, i18n } = useTranslation(['dashboard', 'lists']);
  const session = useSession();
  const tenantUser = session !== null && !session.superAdmin;
  const mayRead = session?.permissions.includes('tenant:read') ?? false;
  // The server leaves the activity out for those who may not read the audit log.
  const mayReadAudit = session?.permissions.includes('audit:read') ?? false;
  const maySetUp = ONBOARDING_PERMISSIONS.every((p) => session?.permissions.includes(p));
  const onboarding = useOnboardingRedirect(tenantUser);
  const dashboard = useDashboard(tenantUser && mayRead);
  const locale = i18n.resolvedLanguage ?? 'en';
  const format = useMemo(() => formatters(locale), [locale]);
  // Until the progress is known the dashboard stays in skeletons: a tenant not set up yet
  // goes to the wizard without a flash of figures first.
  const opening = tenantUser && (onboarding.isPending || onboarding.data?.shouldOpen === true);
  const data = opening ? undefined : dashboard.data;

  return (
    <Stack spacing={3}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography component="h1" variant="h4" sx={{ flex: 1 }}>
          {t('title')}
        </Typography>
        {tenantUser && maySetUp && onboarding.data ? (
          <Button component={RouterLink} to={paths.welcome} variant="outlined">
            {t('openOnboarding')}
          </Button>
        ) : null}
      </Box>
      {!tenantUser ? (
        <Alert severity="info">{t('superAdmin')}</Alert>
      ) : !mayRead ? (
        <Alert severity="info">{t('noAccess')}</Alert>
      ) : dashboard.isError && !data ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void dashboard.refetch()}>
              {t('lists:retry')}
            </Button>
          }
        >
          {t('loadFailed', { message: describeFailure(t, dashboard.error) })}
        </Alert>
      ) : (
        <>
          <FigureCards figures={data?.figures} format={format} />
          <DashboardCharts data={data} format={format} />
          {mayReadAudit ? <RecentActivity entries={data?.recentActivity} format={format} /> : null}
        </>
      )}
    </Stack>
  );
}
