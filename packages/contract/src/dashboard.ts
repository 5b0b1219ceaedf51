import { z } from 'zod';
import { envelope } from './problem';

/**
 * The home dashboard, `GET /api/v1.0/dashboard`: every figure and chart of the
 * caller's tenant in one answer. Needs `tenant:read`; super administrators get 403 (they
 * manage tenants, not tenant data). Days are UTC calendar days.
 */
export const DASHBOARD_DAYS = 30;
export const DASHBOARD_TOP_OWNERS = 10;
export const DASHBOARD_RECENT_ACTIVITY = 10;

export const dashboardFiguresSchema = z.object({
  projects: z.number().int(),
  /** Sum of all project budgets, an exact decimal string ("1250000.50"). */
  totalBudget: z.string(),
  /** Every user of the tenant, whatever their status. */
  users: z.number().int(),
  /** Status active and a password set: can sign in. */
  activeUsers: z.number().int(),
  /** No password set yet (the invitation is pending), whatever their status. */
  invitedUsers: z.number().int(),
  roles: z.number().int(),
});

export const dashboardSchema = z
  .object({
    figures: dashboardFiguresSchema,
    /** Largest budget first; projects without a country under `country: null`. */
    budgetByCountry: z.array(
      z.object({
        country: z.string().nullable(),
        budget: z.string(),
        projects: z.number().int(),
      }),
    ),
    /** The owners of most projects (at most 10), most first; unowned projects are left out. */
    projectsPerOwner: z.array(
      z.object({ ownerId: z.uuid(), owner: z.string(), projects: z.number().int() }),
    ),
    /** The last 30 days, oldest first, today last; days without a sign-in count 0. */
    signInsPerDay: z.array(z.object({ day: z.iso.date(), count: z.number().int() })),
    /** Every role of the tenant, most users first (roles without users count 0). */
    usersByRole: z.array(z.object({ roleId: z.uuid(), role: z.string(), users: z.number().int() })),
    /**
     * The last 10 audit entries, newest first. `actor`: the actor's name (or e-mail when the
     * name is blank), null when the actor is gone. `summary`: the entity's name or e-mail
     * when it has one. Empty when the caller lacks `audit:read`.
     */
    recentActivity: z.array(
      z.object({
        id: z.uuid(),
        at: z.string(),
        action: z.string(),
        entity: z.string(),
        entityId: z.string(),
        actorId: z.uuid().nullable(),
        actor: z.string().nullable(),
        summary: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'Dashboard' });
export type Dashboard = z.infer<typeof dashboardSchema>;
export type DashboardFigures = z.infer<typeof dashboardFiguresSchema>;

export const dashboardResponseSchema = envelope(dashboardSchema);
