import Box from '@mui/material/Box';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import type { Dashboard } from '@tc/contract/dashboard';
import { useTranslation } from 'react-i18next';
import type { Formatters } from '../format';
import { CHART_HEIGHT, ChartCard } from './chart-card';

const grid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' },
} as const;

/**
 * The four charts of the home dashboard, MUI X Charts: budget by country,
 * projects per owner, sign-ins per day over the last 30 days and users by role.
 */
export function DashboardCharts(props: { data: Dashboard | undefined; format: Formatters }) {
  const { t } = useTranslation('dashboard');
  const { data, format } = props;
  const loading = data === undefined;

  const countries = (data?.budgetByCountry ?? []).map((row) => ({
    name: row.country ? format.country(row.country) : t('noCountry'),
    budget: Number(row.budget),
    exact: row.budget,
  }));
  const owners = data?.projectsPerOwner ?? [];
  const signIns = data?.signInsPerDay ?? [];
  const roles = data?.usersByRole ?? [];
  const anySignIn = signIns.some((day) => day.count > 0);
  const anyUser = roles.some((role) => role.users > 0);

  return (
    <Box sx={grid}>
      <ChartCard
        title={t('charts.budgetByCountry')}
        loading={loading}
        emptyText={t('charts.noProjects')}
        table={{
          columns: [t('charts.country'), t('charts.budget')],
          rows: countries.map((row) => [row.name, format.budget(row.exact)]),
        }}
      >
        <BarChart
          height={CHART_HEIGHT}
          xAxis={[{ scaleType: 'band', data: countries.map((row) => row.name) }]}
          yAxis={[{ width: 80, valueFormatter: (value: number) => format.count(value) }]}
          series={[
            {
              data: countries.map((row) => row.budget),
              label: t('charts.budget'),
              valueFormatter: (value) => (value === null ? '' : format.budget(value)),
            },
          ]}
          hideLegend
        />
      </ChartCard>
      <ChartCard
        title={t('charts.projectsPerOwner')}
        loading={loading}
        emptyText={t('charts.noOwners')}
        table={{
          columns: [t('charts.owner'), t('charts.projects')],
          rows: owners.map((row) => [row.owner, format.count(row.projects)]),
        }}
      >
        <BarChart
          height={CHART_HEIGHT}
          layout="horizontal"
          yAxis={[{ scaleType: 'band', data: owners.map((row) => row.owner), width: 120 }]}
          xAxis={[{ tickMinStep: 1 }]}
          series={[
            {
              data: owners.map((row) => row.projects),
              label: t('charts.projects'),
              valueFormatter: (value) => (value === null ? '' : format.count(value)),
            },
          ]}
          hideLegend
        />
      </ChartCard>
      <ChartCard
        title={t('charts.signInsPerDay')}
        loading={loading}
        emptyText={t('charts.noSignIns')}
        table={{
          columns: [t('charts.day'), t('charts.signIns')],
          rows: anySignIn
            ? signIns.map((row) => [format.day(row.day), format.count(row.count)])
            : [],
        }}
      >
        <LineChart
          height={CHART_HEIGHT}
          xAxis={[
            {
              scaleType: 'point',
              data: signIns.map((row) => row.day),
              valueFormatter: (day: string) => format.day(day),
            },
          ]}
          yAxis={[{ tickMinStep: 1 }]}
          series={[
            {
              data: signIns.map((row) => row.count),
              label: t('charts.signIns'),
              area: true,
              showMark: false,
              valueFormatter: (value) => (value === null ? '' : format.count(value)),
            },
          ]}
          hideLegend
        />
      </ChartCard>
      <ChartCard
        title={t('charts.usersByRole')}
        loading={loading}
        emptyText={t('charts.noUsers')}
        table={{
          columns: [t('charts.role'), t('charts.users')],
          rows: anyUser ? roles.map((row) => [row.role, format.count(row.users)]) : [],
        }}
      >
        <PieChart
          height={CHART_HEIGHT}
          series={[
            {
              data: roles
                .filter((row) => row.users > 0)
                .map((row) => ({ id: row.roleId, value: row.users, label: row.role })),
              innerRadius: 50,
              paddingAngle: 1,
              valueFormatter: (item) => format.count(item.value),
            },
          ]}
        />
      </ChartCard>
    </Box>
  );
}
