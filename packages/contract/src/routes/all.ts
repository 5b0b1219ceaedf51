import { accountRoutes } from './account';
import { accountApplicationRoutes } from './account-applications';
import { assistantRoutes } from './assistant';
import { auditRoutes } from './audit';
import { authRoutes } from './auth';
import { clientRoutes } from './clients';
import { dashboardRoutes } from './dashboard';
import { mailQueueRoutes } from './mail-queue';
import { onboardingRoutes } from './onboarding';
import { permissionRoutes } from './permissions';
import { projectRoutes } from './projects';
import { roleRoutes } from './roles';
import { settingsRoutes } from './settings';
import { tenantRoutes } from './tenants';
import { userImportRoutes } from './user-import';
import { userRoutes } from './users';
import { webhookRoutes } from './webhooks';

/** Every table, by area: what the server must register and nothing else (route-table test). */
export const apiRoutes = {
  account: accountRoutes,
  accountApplications: accountApplicationRoutes,
  assistant: assistantRoutes,
  audit: auditRoutes,
  auth: authRoutes,
  clients: clientRoutes,
  dashboard: dashboardRoutes,
  mailQueue: mailQueueRoutes,
  onboarding: onboardingRoutes,
  permissions: permissionRoutes,
  projects: projectRoutes,
  roles: roleRoutes,
  settings: settingsRoutes,
  tenants: tenantRoutes,
  users: userRoutes,
  userImport: userImportRoutes,
  webhooks: webhookRoutes,
};
