/** Which tenants a scenario seeds for how many consoles, and which console works where. */
import { Console } from './console';
import type { TenantFixture } from './fixture';
import { domainOf, type TenantPlan } from './seed';
import { BYSTANDER_USERS, SEED, type Scenario } from './settings';

export function plansOf(scenario: Scenario, consoles: number): TenantPlan[] {
  const perTenant = Math.max(1, Math.ceil(consoles / scenario.tenants));
  const width = String(scenario.tenants).length;
  const working = Array.from({ length: scenario.tenants }, (_, i) => {
    const name = `mix${String(i + 1).padStart(width, '0')}`;
    return {
      name,
      users: scenario.users,
      projects: scenario.projects,
      consoleEmails: Array.from(
        { length: perTenant },
        (_, k) => `console${k + 1}@${domainOf(name)}`,
      ),
    };
  });
  const bystanders = Array.from({ length: scenario.bystanders }, (_, i) => ({
    name: `bystander${i + 1}`,
    users: BYSTANDER_USERS,
    projects: 20,
    consoleEmails: [],
  }));
  return [...working, ...bystanders];
}

/** Console i works in tenant i mod T, as that tenant's (i div T)-th administrator. */
export function consolesOf(tenants: TenantFixture[], count: number): Console[] {
  const working = tenants.filter((tenant) => tenant.consoleEmails.length > 0);
  return Array.from({ length: count }, (_, i) => {
    const tenant = working[i % working.length]!;
    return new Console(i, tenant, tenant.consoleEmails[Math.floor(i / working.length)]!, SEED);
  });
}
