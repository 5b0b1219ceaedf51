import type { Project } from '@tc/contract/projects';
import type { CsvColumn } from '../../http/csv';
import type { ExportedUser } from '../users';

const iso = (date: Date | string) => (typeof date === 'string' ? date : date.toISOString());

/** The users list's columns, as a spreadsheet wants them: names apart, the date ISO 8601. */
export const userColumns: CsvColumn<ExportedUser>[] = [
  { header: 'E-mail', value: (user) => user.email },
  { header: 'First name', value: (user) => user.firstName },
  { header: 'Last name', value: (user) => user.lastName },
  { header: 'Role', value: (user) => user.role },
  { header: 'Status', value: (user) => user.status },
  { header: 'Invited', value: (user) => (user.invited ? 'yes' : 'no') },
  { header: 'Created', value: (user) => iso(user.createdAt) },
];

/** The projects list's columns and the rest of what a project holds, people by name. */
export const projectColumns: CsvColumn<Project>[] = [
  { header: 'Project number', value: (project) => project.projectNumber },
  { header: 'Name', value: (project) => project.name },
  { header: 'Short name', value: (project) => project.short },
  { header: 'Description', value: (project) => project.description },
  { header: 'Owner', value: (project) => project.owner },
  { header: 'Budget', value: (project) => project.budget },
  { header: 'Country', value: (project) => project.country },
  { header: 'City', value: (project) => project.city },
  { header: 'Postal code', value: (project) => project.postalCode },
  { header: 'Address', value: (project) => project.address },
  { header: 'People', value: (project) => project.people.map((person) => person.name).join('; ') },
  { header: 'Created', value: (project) => iso(project.createdAt) },
];
