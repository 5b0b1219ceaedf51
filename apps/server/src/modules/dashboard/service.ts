import type { Dashboard } from '@tc/contract/dashboard';
import type { Database } from '../../db/database';
import type { Caller } from '../../identity/token-service';
import { VersionedCache } from './cache';
import {
  dashboardVersion,
  projectFigures,
  projectsPerOwner,
  recentActivity,
  signInsPerDay,
  userFigures,
  usersByRole,
} from './queries';

export type DashboardCache = VersionedCache<Dashboard>;
export const createDashboardCache = (): DashboardCache => new VersionedCache<Dashboard>();

/** Every figure of one tenant; the queries are independent, so they run side by side. */
export async function computeDashboard(db: Database, tenantId: string): Promise<Dashboard> {
  const [projects, owners, people, roles, signIns, activity] = await Promise.all([
    projectFigures(db, tenantId),
    projectsPerOwner(db, tenantId),
    userFigures(db, tenantId),
    usersByRole(db, tenantId),
    signInsPerDay(db, tenantId),
    recentActivity(db, tenantId),
  ]);
  return {
    figures: {
      projects: projects.projects,
      totalBudget: projects.totalBudget,
      ...people,
      roles: roles.length,
    },
    budgetByCountry: projects.budgetByCountry,
    projectsPerOwner: owners,
    signInsPerDay: signIns,
    usersByRole: roles,
    recentActivity: activity,
  };
}

/**
 * The caller's tenant's dashboard. Computed once per change of the tenant (see
 * VersionedCache); the audit entries are shown only to callers who may read the audit log.
 */
export async function getDashboard({
  db,
  caller,
  cache,
}: {
  db: Database;
  caller: Caller;
  cache: DashboardCache;
}): Promise<Dashboard> {
  const version = await dashboardVersion(db, caller.tenantId);
  const dashboard = await cache.get(caller.tenantId, version, () =>
    computeDashboard(db, caller.tenantId),
  );
  return caller.permissions.includes('audit:read')
    ? dashboard
    : { ...dashboard, recentActivity: [] };
}
