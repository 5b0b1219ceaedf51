import type { Dashboard } from '@tc/contract/dashboard';
import type { Database } from '../../db/database';
import type { Caller } from '../../identity/token-service';
import {
  dashboardVersion,
  projectFigures,
  projectsPerOwner,
  recentActivity,
  signInsPerDay,
  userFigures,
  usersByRole,
} from './queries';

/**
 * The last computed value per tenant, reused while the tenant's version (dashboardVersion) is
 * unchanged. Every console refetches the dashboard on each change event, so without it one
 * change would fan out into as many full recomputations as there are open consoles; with it
 * they share one (concurrent misses of the same version wait for the same promise).
 * Each process keeps its own: the version is read from the database, so processes agree.
 */
export class VersionedCache<T> {
  readonly #entries = new Map<string, { version: string; at: number; value: Promise<T> }>();

  constructor(
    private readonly maxEntries = 1000,
    /** A bound on staleness should some write not be audited; audited writes are seen at once. */
    private readonly maxAgeMs = 60_000,
  ) {}

  get(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit && hit.version === version && Date.now() - hit.at < this.maxAgeMs) return hit.value;
    const entry = { version, at: Date.now(), value: compute() };
    // Re-inserted last, so the first key is the least recently computed one.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    // A failure is not remembered: the next request computes again.
    entry.value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    return entry.value;
  }

  clear(): void {
    this.#entries.clear();
  }
}

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
