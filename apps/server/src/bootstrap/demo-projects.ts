import { sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { auditLog } from '../db/schema/audit';
import { projectPeople, projects } from '../db/schema/projects';
import { signIns } from '../db/schema/dashboard';
import { recordChange } from '../modules/audit';

/** The demo's users by first name (seed-demo.ts), with whether they may create projects. */
export type DemoPeople = Record<string, { id: string; createsProjects: boolean }>;

interface DemoProject {
  name: string;
  short: string;
  number: string;
  description: string;
  owner: string | null;
  people: string[];
  budget: string;
  country: string | null;
  city: string | null;
  /** Created this many days before the seed. */
  daysAgo: number;
}

/**
 * A portfolio for the demo's dashboard: budgets in five countries (one project without any),
 * owners among the demo users (one project without one), teams, and creation dates over the
 * last five months.
 */
const DEMO_PROJECTS: DemoProject[] = [
  {
    name: 'Apollo Website Relaunch',
    short: 'APOLLO',
    number: 'DEMO-001',
    description: 'New public website: design, content migration and search.',
    owner: 'Anna',
    people: ['Jonas', 'Marco'],
    budget: '120000.00',
    country: 'DE',
    city: 'Berlin',
    daysAgo: 150,
  },
  {
    name: 'Customer Portal',
    short: 'PORTAL',
    number: 'DEMO-002',
    description: 'Self-service portal for orders, invoices and support requests.',
    owner: 'Dana',
    people: ['Anna', 'Claire'],
    budget: '245000.00',
    country: 'CH',
    city: 'Zürich',
    daysAgo: 131,
  },
  {
    name: 'Data Warehouse Migration',
    short: 'DWH',
    number: 'DEMO-003',
    description: 'Move reporting to the new warehouse and retire the nightly exports.',
    owner: 'Jonas',
    people: ['Anna'],
    budget: '310500.00',
    country: 'FR',
    city: 'Paris',
    daysAgo: 118,
  },
  {
    name: 'Berlin Office Move',
    short: 'MOVE',
    number: 'DEMO-004',
    description: 'Network, desks and meeting rooms for the new office.',
    owner: 'Jonas',
    people: ['Claire', 'Marco'],
    budget: '48000.00',
    country: 'DE',
    city: 'Berlin',
    daysAgo: 97,
  },
  {
    name: 'Mobile App 2.0',
    short: 'MOBILE',
    number: 'DEMO-005',
    description: 'Offline mode and push notifications for the field team.',
    owner: 'Anna',
    people: ['Jonas', 'Marco'],
    budget: '180000.00',
    country: 'IT',
    city: 'Milano',
    daysAgo: 83,
  },
  {
    name: 'Security Audit 2026',
    short: 'AUDIT',
    number: 'DEMO-006',
    description: 'External penetration test and the fixes it asks for.',
    owner: 'Dana',
    people: ['Jonas'],
    budget: '36500.00',
    country: 'AT',
    city: 'Wien',
    daysAgo: 64,
  },
  {
    name: 'Partner Onboarding',
    short: 'PARTNER',
    number: 'DEMO-007',
    description: 'Contracts, training and accounts for the new resellers.',
    owner: 'Marco',
    people: ['Anna', 'Claire'],
    budget: '22000.00',
    country: 'FR',
    city: 'Lyon',
    daysAgo: 45,
  },
  {
    name: 'Trade Fair Milan',
    short: 'FAIR',
    number: 'DEMO-008',
    description: 'Booth, travel and demos for the spring trade fair.',
    owner: 'Claire',
    people: ['Marco'],
    budget: '64000.00',
    country: 'IT',
    city: 'Milano',
    daysAgo: 31,
  },
  {
    name: 'Support Chatbot',
    short: 'BOT',
    number: 'DEMO-009',
    description: 'Answers common questions before a ticket is opened.',
    owner: 'Anna',
    people: ['Jonas'],
    budget: '75250.50',
    country: 'CH',
    city: 'Genève',
    daysAgo: 17,
  },
  {
    name: 'Internal Wiki',
    short: 'WIKI',
    number: 'DEMO-010',
    description: 'One place for how-tos, still looking for an owner.',
    owner: null,
    people: [],
    budget: '5000.00',
    country: null,
    city: null,
    daysAgo: 6,
  },
];

const DAY_MS = 86_400_000;

/**
 * The demo's projects, with their teams and their creation in the audit log (dated as the
 * projects are), and a month of sign-ins, so that the first start's dashboard has something
 * in every chart: budgets by country, projects per owner, sign-ins per day, recent activity.
 */
export async function seedDemoProjects(
  tx: Database,
  tenantId: string,
  people: DemoPeople,
  administrator: string,
): Promise<void> {
  const now = Date.now();
  const idOf = (firstName: string) => {
    const person = people[firstName];
    if (!person) throw new Error(`No demo user ${firstName}`);
    return person.id;
  };
  const created = await tx
    .insert(projects)
    .values(
      DEMO_PROJECTS.map((project) => ({
        tenantId,
        name: project.name,
        short: project.short,
        description: project.description,
        ownerId: project.owner ? idOf(project.owner) : null,
        projectNumber: project.number,
        budget: project.budget,
        country: project.country,
        city: project.city,
        createdAt: new Date(now - project.daysAgo * DAY_MS),
        updatedAt: new Date(now - project.daysAgo * DAY_MS),
      })),
    )
    .returning({ id: projects.id, number: projects.projectNumber, createdAt: projects.createdAt });
  const idByNumber = new Map(created.map((row) => [row.number, row]));
  const teams = DEMO_PROJECTS.flatMap((project) =>
    project.people.map((firstName) => ({
      tenantId,
      projectId: idByNumber.get(project.number)!.id,
      userId: idOf(firstName),
    })),
  );
  await tx.insert(projectPeople).values(teams);

  for (const project of DEMO_PROJECTS) {
    const row = idByNumber.get(project.number)!;
    const owner = project.owner ? people[project.owner] : undefined;
    await recordChange(tx, {
      tenantId,
      // The owner created it when allowed to; the administrator otherwise.
      actorId: owner?.createsProjects ? owner.id : idOf(administrator),
      entity: 'projects',
      action: 'create',
      entityId: row.id,
      after: {
        id: row.id,
        name: project.name,
        short: project.short,
        description: project.description,
        ownerId: owner?.id ?? null,
        projectNumber: project.number,
        budget: project.budget,
        country: project.country,
        city: project.city,
        peopleIds: project.people.map(idOf),
        createdAt: row.createdAt.toISOString(),
      },
    });
  }
  // Each entry dated as its project: the log tells the same story as the list.
  await tx.execute(sql`
    update ${auditLog} set created_at = p.created_at
    from ${projects} p
    where ${auditLog.tenantId} = ${tenantId} and p.tenant_id = ${tenantId}
      and ${auditLog.entity} = 'projects' and ${auditLog.entityId} = p.id::text`);

  // The last 29 days before the seed: a few sign-ins on working days, fewer at weekends.
  await tx.insert(signIns).values(
    Array.from({ length: 29 }, (_, index) => {
      const day = new Date(now - (index + 1) * DAY_MS);
      const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6;
      return {
        tenantId,
        day: day.toISOString().slice(0, 10),
        count: weekend ? index % 2 : 3 + ((index * 7) % 5),
      };
    }),
  );
}
