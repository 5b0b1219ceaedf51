import { accountCases } from './secret-route-cases-account';
import { authPageCases } from './secret-route-cases-auth-pages';
import { auditExportCases } from './secret-route-cases-audit-export';
import { clientCases } from './secret-route-cases-clients';
import { consoleCases, driveConsoleFiles, settingsCases } from './secret-route-cases-console';
import { accountFlowCases, entityCases, identityCases } from './secret-route-cases-more';
import { openIdCases } from './secret-route-cases-openid';
import { signInStepCases } from './secret-route-cases-sign-in-steps';
import { csvExportCases } from './secret-route-cases-csv-export';
import { scimCases } from './secret-route-cases-scim';
import { userImportCases } from './secret-route-cases-user-import';
import { webhookCases } from './secret-route-cases-webhooks';
import type { Drive } from './secret-route-cases';

export type Case = [string, (d: Drive) => Promise<void>];

export interface Area {
  name: string;
  cases: Case[];
  /** Routes driven beside the cases, not named by them (the built console's files). */
  alsoDrive?: (d: Drive) => Promise<void>;
}

/**
 * The cases by area, in the order they run on one server: later areas use what earlier ones
 * made (ids, the applications, the admin's current password), so the order is kept. The
 * account page's cases change the admin's password and back; the settings are set back to the
 * defaults before the console's reads.
 */
export const AREAS: Area[] = [
  { name: 'health, the password grant, keys, metadata and the API docs', cases: identityCases },
  { name: 'the account flows (reset, sign-up, verification, Google)', cases: accountFlowCases },
  { name: 'tenants, users, roles, permissions and projects', cases: entityCases },
  { name: 'applications', cases: clientCases },
  { name: 'the OpenID provider', cases: openIdCases },
  { name: 'the hosted sign-in steps', cases: signInStepCases },
  { name: 'the sign-in pages and their forms posted without script', cases: authPageCases },
  { name: "the account page and users' security", cases: accountCases },
  { name: 'the sign-in security settings', cases: settingsCases },
  { name: 'SCIM provisioning', cases: scimCases },
  { name: 'webhooks', cases: webhookCases },
  { name: 'importing users from CSV', cases: userImportCases },
  { name: 'CSV exports', cases: csvExportCases },
  { name: 'the audit log export', cases: auditExportCases },
  {
    name: "the console's reads, its pages and its built files",
    cases: consoleCases,
    alsoDrive: driveConsoleFiles,
  },
];
