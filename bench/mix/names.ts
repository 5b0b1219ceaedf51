/**
 * The words the mixed benchmark seeds with and searches for: people's names from many
 * languages (accents and apostrophes included), roles, permissions, project words, countries.
 * The seed and the workload read the same lists, so a search fragment is always taken from
 * names that are really there.
 */

// prettier-ignore
export const FIRST_NAMES = [
  'Aaliyah', 'Abdul', 'Ada', 'Adrian', 'Agnieszka', 'Ahmed', 'Aiko', 'Aisha', 'Akira', 'Alejandro',
  'Alexander', 'Alice', 'Amara', 'Amelia', 'Amir', 'Ana', 'Anders', 'André', 'Andrea', 'Anna',
  'Antoine', 'Arjun', 'Astrid', 'Ava', 'Beatriz', 'Benjamin', 'Björn', 'Camille', 'Carlos',
  'Carmen', 'Charlotte', 'Chen', 'Chloé', 'Chiara', 'Christian', 'Claire', 'Daniel', 'Dario',
  'David', 'Deepika', 'Diego', 'Dmitri', 'Elena', 'Elif', 'Elijah', 'Elisa', 'Emil', 'Emily',
  'Emma', 'Erik', 'Esra', 'Ethan', 'Eva', 'Fatima', 'Felix', 'Fernando', 'Finn', 'Francesca',
  'François', 'Freya', 'Gabriel', 'Giulia', 'Grace', 'Hana', 'Hannah', 'Hans', 'Hiroshi', 'Hugo',
  'Ines', 'Ingrid', 'Isabella', 'Ivan', 'Jakob', 'James', 'Jan', 'Javier', 'Jens', 'Jiho',
  'Joana', 'João', 'Johanna', 'Jonas', 'José', 'Julia', 'Jürgen', 'Kai', 'Karim', 'Katarzyna',
  'Kenji', 'Klara', 'Lars', 'Laura', 'Layla', 'Lea', 'Leon', 'Liam', 'Lin', 'Lina', 'Lorenzo',
  'Luca', 'Lucas', 'Lucía', 'Łukasz', 'Maja', 'Malik', 'Marco', 'Maria', 'Marie', 'Mateo',
  'Matteo', 'Maximilian', 'Mei', 'Mia', 'Miguel', 'Mohammed', 'Nadia', 'Naomi', 'Nikolai', 'Nils',
  'Noah', 'Nora', 'Olivia', 'Omar', 'Oskar', 'Paul', 'Pedro', 'Pia', 'Priya', 'Rafael', 'Rahul',
  'Rosa', 'Sakura', 'Samuel', 'Sara', 'Sebastian', 'Sofia', 'Søren', 'Stefan', 'Sven', 'Tariq',
  'Thomas', 'Tobias', 'Valentina', 'Victor', 'Wei', 'William', 'Yara', 'Yusuf', 'Zainab', 'Zoë',
];

// prettier-ignore
export const LAST_NAMES = [
  'Abe', 'Adeyemi', 'Agarwal', 'Ahmed', 'Almeida', 'Andersen', 'Andersson', 'Bakker', 'Becker',
  'Bernard', 'Bianchi', 'Brown', 'Castro', 'Chen', 'Costa', 'Dąbrowski', 'Davies', 'De Jong',
  'Dubois', 'Dupont', 'Eriksson', 'Esposito', 'Fernández', 'Ferrari', 'Fischer', 'Fontaine',
  'García', 'Gomes', 'González', 'Gupta', 'Hansen', 'Hartmann', 'Hernández', 'Hoffmann', 'Huber',
  'Ivanov', 'Jansen', 'Jensen', 'Johansson', 'Johnson', 'Kaya', 'Keller', 'Khan', 'Kim', 'Klein',
  'Koch', 'Kovačević', 'Kowalski', 'Kumar', 'Larsen', 'Laurent', 'Lee', 'Lefèvre', 'Lehmann',
  'Li', 'Lindqvist', 'Liu', 'López', 'Martin', 'Martínez', 'Meier', 'Mendes', 'Meyer', 'Moreau',
  'Müller', 'Nakamura', 'Naidoo', 'Nguyen', 'Nielsen', 'Novak', 'Nowak', "O'Brien", "O'Connor",
  'Okafor', 'Olsen', 'Oliveira', 'Park', 'Patel', 'Pereira', 'Petrov', 'Popescu', 'Ricci',
  'Richter', 'Rodríguez', 'Romano', 'Rossi', 'Sánchez', 'Santos', 'Sato', 'Schäfer', 'Schmid',
  'Schmidt', 'Schneider', 'Schulz', 'Schwarz', 'Silva', 'Singh', 'Smith', 'Sokolov', 'Suzuki',
  'Tanaka', 'Taylor', 'Thomas', 'Van den Berg', 'Vogel', 'Wagner', 'Wang', 'Weber', 'Williams',
  'Wilson', 'Wolf', 'Wong', 'Yamamoto', 'Yilmaz', 'Zhang', 'Zimmermann',
];

/** Mail domains of a tenant's users besides the tenant's own. */
export const MAIL_DOMAINS = ['mail.example', 'post.example', 'inbox.example'];

/** Roles of each tenant besides the built-in Admin and Member. */
// prettier-ignore
export const ROLE_NAMES = [
  'Editor', 'Viewer', 'Planner', 'Controller', 'Engineer', 'Auditor', 'Support', 'Sales',
  'Finance', 'Project Lead',
];

/** Permissions of each tenant besides the system ones (unused by the server's checks). */
// prettier-ignore
export const PERMISSION_NAMES = [
  'reports:export', 'reports:read', 'invoices:read', 'invoices:write', 'invoices:approve',
  'budgets:read', 'budgets:write', 'timesheets:read', 'timesheets:write', 'timesheets:approve',
  'documents:read', 'documents:write', 'documents:share', 'contracts:read', 'contracts:sign',
  'assets:read', 'assets:write', 'calendar:read', 'calendar:write', 'support:tickets',
];

// prettier-ignore
export const PROJECT_WORDS = [
  'Apollo', 'Atlas', 'Aurora', 'Beacon', 'Bridge', 'Cascade', 'Compass', 'Delta', 'Echo',
  'Falcon', 'Frontier', 'Granite', 'Harbor', 'Horizon', 'Keystone', 'Lighthouse', 'Meridian',
  'Nova', 'Orion', 'Pioneer', 'Quartz', 'Redwood', 'Summit', 'Tidal', 'Vanguard', 'Zenith',
];
// prettier-ignore
export const PROJECT_KINDS = [
  'Renovation', 'Rollout', 'Migration', 'Expansion', 'Audit', 'Upgrade', 'Campaign', 'Research',
  'Pilot', 'Construction',
];

export const COUNTRIES = ['DE', 'CH', 'AT', 'FR', 'IT', 'US', 'GB', 'ES', 'NL', 'SE', 'PL', 'BR'];
// prettier-ignore
export const CITIES = [
  'Berlin', 'Zürich', 'Wien', 'Paris', 'Milano', 'Boston', 'London', 'Madrid', 'Utrecht',
  'Malmö', 'Kraków', 'São Paulo', 'Hamburg', 'Genève', 'Lyon', 'Seattle',
];

/** A SQL array literal of the words (quotes doubled). */
export const sqlArray = (words: readonly string[]) =>
  `array[${words.map((word) => `'${word.replaceAll("'", "''")}'`).join(',')}]::text[]`;

/** Accented letters as the e-mail addresses spell them: each letter, then its plain one. */
const ASCII_PAIRS =
  'àaáaâaãaäaåaąaçcčcćcèeéeêeëeęeìiíiîiïiłlŁlñnńnòoóoôoõoöoøošsśsùuúuûuüuýyžzźzżzğgıişs';
export const ASCII_FROM = [...ASCII_PAIRS].filter((_, i) => i % 2 === 0).join('');
export const ASCII_TO = [...ASCII_PAIRS].filter((_, i) => i % 2 === 1).join('');
