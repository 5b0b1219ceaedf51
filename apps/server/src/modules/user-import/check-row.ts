import type { UserImportMapping, UserImportRowProblem } from '@tc/contract/user-import';
import { userCreateSchema } from '@tc/contract/users';

/**
 * Header names that suggest a field, in English, German, French and Italian, compared after
 * `normalizedName` (lower case, accents and everything but letters and digits dropped).
 */
const FIELD_NAMES: Record<keyof UserImportMapping, readonly string[]> = {
  firstName: ['firstname', 'first', 'givenname', 'forename', 'vorname', 'prenom', 'nome'],
  lastName: [
    'lastname',
    'last',
    'surname',
    'familyname',
    'nachname',
    'familienname',
    'nom',
    'nomdefamille',
    'cognome',
  ],
  email: [
    'email',
    'mail',
    'emailaddress',
    'emailadresse',
    'adresseemail',
    'adressemail',
    'courriel',
    'indirizzoemail',
    'postaelettronica',
  ],
  role: ['role', 'rolle', 'ruolo', 'rolename'],
  status: ['status', 'statut', 'stato', 'etat', 'state', 'zustand'],
};

const normalizedName = (name: string) =>
  name
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** For each field, the first column whose header names it; null when none does. */
export function suggestMapping(columns: readonly string[]): UserImportMapping {
  const names = columns.map(normalizedName);
  const pick = (field: keyof UserImportMapping) => {
    const index = names.findIndex((name) => FIELD_NAMES[field].includes(name));
    return index === -1 ? null : index;
  };
  return {
    firstName: pick('firstName'),
    lastName: pick('lastName'),
    email: pick('email'),
    role: pick('role'),
    status: pick('status'),
  };
}

/** Status words in the four languages; an empty cell (or no status column) means active. */
const STATUS_WORDS: Record<string, 'active' | 'inactive'> = {
  '': 'active',
  active: 'active',
  aktiv: 'active',
  actif: 'active',
  attivo: 'active',
  inactive: 'inactive',
  inaktiv: 'inactive',
  inactif: 'inactive',
  inattivo: 'inactive',
};

/** A role of the tenant as the importer may give it: a refusal when they may not. */
export interface RoleChoice {
  id: string;
  name: string;
  refusal?: { code: string; params?: Record<string, string | number> };
}

export interface CheckedRow {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  roleName: string | null;
  roleId: string | null;
  status: 'active' | 'inactive' | null;
  problems: UserImportRowProblem[] | null;
}

const CONTROL = /\p{Cc}/u;
const fieldSchemas = {
  firstName: userCreateSchema.shape.firstName,
  lastName: userCreateSchema.shape.lastName,
  email: userCreateSchema.shape.email,
};

/**
 * One row's fields as the user create form would take them: each refusal is the same problem
 * code the form shows (first name missing or too long, control characters, a bad e-mail
 * address), plus the role by name (unknown, or one the importer may not give) and the status.
 * Duplicates in the file and existing users are found afterwards, across all rows, in SQL.
 */
export function checkRow(
  cells: readonly string[],
  mapping: UserImportMapping,
  roles: ReadonlyMap<string, RoleChoice>,
): CheckedRow {
  const problems: UserImportRowProblem[] = [];
  const cell = (index: number | null) => (index === null ? '' : (cells[index] ?? ''));
  const text = (field: keyof typeof fieldSchemas) => {
    const parsed = fieldSchemas[field].safeParse(cell(mapping[field]));
    if (parsed.success) return parsed.data;
    problems.push({ field, code: parsed.error.issues[0]?.message ?? 'field.invalid' });
    return null;
  };
  const firstName = text('firstName');
  const lastName = text('lastName');
  const email = text('email');

  const roleName = cell(mapping.role).trim();
  let role: RoleChoice | undefined;
  if (CONTROL.test(roleName)) problems.push({ field: 'role', code: 'text.control_in_line' });
  else if (roleName === '') problems.push({ field: 'role', code: 'user_import.role_required' });
  else {
    role = roles.get(roleName.toLowerCase());
    if (!role) {
      problems.push({
        field: 'role',
        code: 'user_import.role_unknown',
        params: { role: roleName.slice(0, 100) },
      });
    } else if (role.refusal) problems.push({ field: 'role', ...role.refusal });
  }

  const status = STATUS_WORDS[cell(mapping.status).trim().toLowerCase()] ?? null;
  if (!status) problems.push({ field: 'status', code: 'user_import.status_invalid' });

  return {
    firstName,
    lastName,
    email,
    roleName: role ? role.name : null,
    roleId: role && !role.refusal ? role.id : null,
    status,
    problems: problems.length > 0 ? problems : null,
  };
}
