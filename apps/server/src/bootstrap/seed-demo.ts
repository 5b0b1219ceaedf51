import { permissions } from '../db/schema/identity';
import type { Database } from '../db/database';
import { provisionTenant } from '../modules/tenants';
import { insertRole } from '../modules/roles';
import { insertUser } from '../modules/users';
import { markOnboardingComplete } from '../modules/onboarding';
import { sql } from 'drizzle-orm';
import { seedDemoProjects, type DemoPeople } from './demo-projects';

/** Known credentials of the embedded demo: it exists for a newcomer's first look only. */
export const DEMO_ADMIN = { email: 'admin@demo.localhost', password: 'Demo-admin-2026!' };

const SAMPLE_USERS = [
  { firstName: 'Anna', lastName: 'Schmidt', role: 'Editor', status: 'active' },
  { firstName: 'Marco', lastName: 'Rossi', role: 'Viewer', status: 'active' },
  { firstName: 'Claire', lastName: 'Martin', role: 'Viewer', status: 'inactive' },
  { firstName: 'Jonas', lastName: 'Weber', role: 'Editor', status: 'active' },
] as const;

export async function seedDemoTenant(tx: Database): Promise<void> {
  const demo = await provisionTenant(tx, {
    name: 'demo',
    domain: 'demo.localhost',
    allowSignup: true,
  });
  // The demo is shown ready-made: its administrator lands on /home, not in the wizard.
  await markOnboardingComplete(tx, demo.tenantId);
  const id = (name: string) => demo.permissionIds.get(name)!;
  const custom = await tx
    .insert(permissions)
    .values([
      { tenantId: demo.tenantId, name: 'reports:export', description: 'Export project reports.' },
      { tenantId: demo.tenantId, name: 'billing:read', description: 'See invoices.' },
    ])
    .returning({ id: permissions.id, name: permissions.name });
  const reportsExport = custom.find((p) => p.name === 'reports:export')!.id;
  await tx.execute(
    sql`insert into role_permissions (tenant_id, role_id, permission_id)
        select ${demo.tenantId}, ${demo.adminRoleId}, id from permissions
        where tenant_id = ${demo.tenantId} and is_system = false`,
  );
  const roleIds: Record<string, string> = {
    Editor: await insertRole(tx, {
      tenantId: demo.tenantId,
      name: 'Editor',
      description: 'Runs projects.',
      permissionIds: [id('projects:read'), id('projects:write'), id('users:read'), reportsExport],
    }),
    Viewer: await insertRole(tx, {
      tenantId: demo.tenantId,
      name: 'Viewer',
      description: 'Follows projects.',
      permissionIds: [id('projects:read'), id('users:read'), id('roles:read')],
    }),
  };
  const people: DemoPeople = {
    Dana: {
      id: await insertUser(tx, {
        tenantId: demo.tenantId,
        email: DEMO_ADMIN.email,
        firstName: 'Dana',
        lastName: 'Admin',
        roleId: demo.adminRoleId,
        password: DEMO_ADMIN.password,
      }),
      createsProjects: true,
    },
  };
  for (const user of SAMPLE_USERS) {
    const userId = await insertUser(tx, {
      tenantId: demo.tenantId,
      email: `${user.firstName}.${user.lastName}@demo.localhost`.toLowerCase(),
      firstName: user.firstName,
      lastName: user.lastName,
      roleId: roleIds[user.role]!,
      status: user.status,
      password: DEMO_ADMIN.password,
    });
    people[user.firstName] = { id: userId, createsProjects: user.role === 'Editor' };
  }
  await seedDemoProjects(tx, demo.tenantId, people, 'Dana');
}
