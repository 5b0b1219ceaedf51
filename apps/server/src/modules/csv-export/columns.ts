import type { Project } from '@tc/contract/projects';
import type { CsvColumn } from '../../http/csv';
import type { MailLocale } from '../../mail/locale';
import type { ExportedUser } from '../users';

const iso = (date: Date | string) => (typeof date === 'string' ? date : date.toISOString());

/** A column's header in each language of the console, and its cell. */
interface LocalizedColumn<Row> {
  header: Record<MailLocale, string>;
  value: CsvColumn<Row>['value'];
}

const inLanguage = <Row>(columns: LocalizedColumn<Row>[], locale: MailLocale): CsvColumn<Row>[] =>
  columns.map(({ header, value }) => ({ header: header[locale], value }));

/**
 * The users list's columns, as a spreadsheet wants them: names apart, the date ISO 8601 in UTC.
 * Headers follow the caller's language; values stay as the API spells them (active, yes).
 */
const USER_COLUMNS: LocalizedColumn<ExportedUser>[] = [
  {
    header: { en: 'E-mail', de: 'E-Mail', fr: 'E-mail', it: 'E-mail' },
    value: (user) => user.email,
  },
  {
    header: { en: 'First name', de: 'Vorname', fr: 'Prénom', it: 'Nome' },
    value: (user) => user.firstName,
  },
  {
    header: { en: 'Last name', de: 'Nachname', fr: 'Nom de famille', it: 'Cognome' },
    value: (user) => user.lastName,
  },
  { header: { en: 'Role', de: 'Rolle', fr: 'Rôle', it: 'Ruolo' }, value: (user) => user.role },
  {
    header: { en: 'Status', de: 'Status', fr: 'Statut', it: 'Stato' },
    value: (user) => user.status,
  },
  {
    header: { en: 'Invited', de: 'Eingeladen', fr: 'Invité', it: 'Invitato' },
    value: (user) => (user.invited ? 'yes' : 'no'),
  },
  {
    header: { en: 'Created', de: 'Erstellt', fr: 'Créé le', it: 'Creato il' },
    value: (user) => iso(user.createdAt),
  },
];

/** The projects list's columns and the rest of what a project holds, people by name. */
const PROJECT_COLUMNS: LocalizedColumn<Project>[] = [
  {
    header: {
      en: 'Project number',
      de: 'Projektnummer',
      fr: 'Numéro de projet',
      it: 'Numero di progetto',
    },
    value: (project) => project.projectNumber,
  },
  {
    header: { en: 'Name', de: 'Name', fr: 'Nom', it: 'Nome' },
    value: (project) => project.name,
  },
  {
    header: { en: 'Short name', de: 'Kurzname', fr: 'Abréviation', it: 'Sigla' },
    value: (project) => project.short,
  },
  {
    header: { en: 'Description', de: 'Beschreibung', fr: 'Description', it: 'Descrizione' },
    value: (project) => project.description,
  },
  {
    header: { en: 'Owner', de: 'Verantwortlich', fr: 'Responsable', it: 'Responsabile' },
    value: (project) => project.owner,
  },
  {
    header: { en: 'Budget', de: 'Budget', fr: 'Budget', it: 'Budget' },
    value: (project) => project.budget,
  },
  {
    header: { en: 'Country', de: 'Land', fr: 'Pays', it: 'Paese' },
    value: (project) => project.country,
  },
  {
    header: { en: 'City', de: 'Ort', fr: 'Ville', it: 'Città' },
    value: (project) => project.city,
  },
  {
    header: { en: 'Postal code', de: 'Postleitzahl', fr: 'Code postal', it: 'CAP' },
    value: (project) => project.postalCode,
  },
  {
    header: { en: 'Address', de: 'Adresse', fr: 'Adresse', it: 'Indirizzo' },
    value: (project) => project.address,
  },
  {
    header: { en: 'People', de: 'Personen', fr: 'Personnes', it: 'Persone' },
    value: (project) => project.people.map((person) => person.name).join('; '),
  },
  {
    header: { en: 'Created', de: 'Erstellt', fr: 'Créé le', it: 'Creato il' },
    value: (project) => iso(project.createdAt),
  },
];

export const userColumns = (locale: MailLocale) => inLanguage(USER_COLUMNS, locale);
export const projectColumns = (locale: MailLocale) => inLanguage(PROJECT_COLUMNS, locale);
