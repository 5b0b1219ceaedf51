/**
 * What the consoles ask for. Every choice is drawn from the console's own random stream, so no
 * request is repeated on purpose: a random list (users, roles, permissions, projects), a random
 * page from 1 to the last the server's count allows, a random sort column and direction, a
 * search for a random 2–4 letter piece of a seeded name, a random filter; single rows by id;
 * about 7 % edits and 3 % refresh grants.
 */
import type { Console } from './console';
import {
  CITIES,
  COUNTRIES,
  FIRST_NAMES,
  LAST_NAMES,
  PERMISSION_NAMES,
  PROJECT_KINDS,
  PROJECT_WORDS,
  ROLE_NAMES,
} from './names';
import {
  API,
  fragmentOf,
  getOp,
  oneOf,
  pageOp,
  REFRESH,
  userSearch,
  weighted,
  type Op,
} from './requests';

function usersFilter(c: Console): Record<string, string> {
  const { rng } = c;
  const status = () => (rng() < 0.75 ? 'active' : 'inactive');
  const role = () => oneOf(rng, c.tenant.roles).id;
  return weighted(rng, [
    [55, () => ({})],
    [20, () => ({ status: status() })],
    [20, () => ({ roleId: role() })],
    [5, () => ({ status: status(), roleId: role() })],
  ] as const)();
}

function projectsFilter(c: Console): Record<string, string> {
  const { rng } = c;
  const owners = c.tenant.ownerIds;
  return weighted(rng, [
    [60, () => ({})],
    [20, () => (owners.length > 0 ? { ownerId: oneOf(rng, owners) } : {})],
    [20, () => ({ country: oneOf(rng, COUNTRIES) })],
  ] as const)();
}

/** An edit of a user: another name, or the status switched. The console's own admins are not sampled. */
function userUpdate(c: Console): Op {
  const { rng } = c;
  const user = oneOf(rng, c.tenant.users);
  const renamed = rng() < 0.5;
  const next = {
    id: user.id,
    firstName: renamed ? oneOf(rng, FIRST_NAMES) : user.firstName,
    lastName: renamed ? oneOf(rng, LAST_NAMES) : user.lastName,
    email: user.email,
    roleId: user.roleId,
    status: renamed ? user.status : user.status === 'active' ? 'inactive' : 'active',
  } as const;
  return {
    label: 'users.update',
    kind: 'edit',
    method: 'PUT',
    path: `${API}/users/update`,
    body: JSON.stringify(next),
    after: () => {
      Object.assign(user, next);
      return undefined;
    },
  };
}

const budget = (rng: () => number) => (Math.round(rng() ** 3 * 500_000_000) / 100).toFixed(2);

function peopleOf(c: Console): string[] {
  const count = Math.floor(c.rng() * 4);
  return [...new Set(Array.from({ length: count }, () => oneOf(c.rng, c.tenant.users).id))];
}

/** A new project, or an existing one with another budget, owner and people (PUT replaces all). */
function projectEdit(c: Console, serial: () => number): Op {
  const { rng, tenant } = c;
  const owner = tenant.ownerIds.length > 0 ? oneOf(rng, tenant.ownerIds) : null;
  if (rng() < 0.45 || tenant.projects.length === 0) {
    const number = `M-${c.index}-${serial()}`;
    const name = `${oneOf(rng, PROJECT_WORDS)} ${oneOf(rng, PROJECT_KINDS)} ${number}`;
    const project = {
      name,
      short: null,
      ownerId: owner,
      projectNumber: number,
      budget: budget(rng),
      country: oneOf(rng, COUNTRIES),
      city: oneOf(rng, CITIES),
      postalCode: null,
      peopleIds: peopleOf(c),
    };
    return {
      label: 'projects.create',
      kind: 'edit',
      method: 'POST',
      path: `${API}/projects/create`,
      body: JSON.stringify(project),
      after: (answer) => {
        const { id } = (JSON.parse(answer.text) as { data: { id: string } }).data;
        tenant.projects.push({ ...project, id });
        return undefined;
      },
    };
  }
  const project = oneOf(rng, tenant.projects);
  const next = { ...project, budget: budget(rng), ownerId: owner, peopleIds: peopleOf(c) };
  return {
    label: 'projects.update',
    kind: 'edit',
    method: 'PUT',
    path: `${API}/projects/update`,
    body: JSON.stringify({ ...next, description: null, address: null }),
    after: () => {
      Object.assign(project, next);
      return undefined;
    },
  };
}

/** Unique project numbers across runs and consoles. */
let serialNumber = Date.now() % 1e9;
const serial = () => (serialNumber += 1);

/** The mix: weights in % of requests. */
const MIX: ReadonlyArray<readonly [number, (c: Console) => Op]> = [
  [32, (c) => pageOp(c, { entity: 'users', kind: 'list', filter: usersFilter(c) })],
  [
    16,
    (c) =>
      pageOp(c, {
        entity: 'users',
        kind: 'search',
        filter: { search: userSearch(c.rng), ...(c.rng() < 0.1 && { status: 'active' }) },
      }),
  ],
  [4, (c) => pageOp(c, { entity: 'roles', kind: 'list', filter: {} })],
  [
    1,
    (c) =>
      pageOp(c, {
        entity: 'roles',
        kind: 'search',
        filter: { search: fragmentOf(c.rng, oneOf(c.rng, ROLE_NAMES)) },
      }),
  ],
  [
    4,
    (c) =>
      pageOp(c, {
        entity: 'permissions',
        kind: 'list',
        filter: c.rng() < 0.3 ? { roleId: oneOf(c.rng, c.tenant.roles).id } : {},
      }),
  ],
  [
    1,
    (c) =>
      pageOp(c, {
        entity: 'permissions',
        kind: 'search',
        filter: { search: fragmentOf(c.rng, oneOf(c.rng, PERMISSION_NAMES)) },
      }),
  ],
  [10, (c) => pageOp(c, { entity: 'projects', kind: 'list', filter: projectsFilter(c) })],
  [
    4,
    (c) =>
      pageOp(c, {
        entity: 'projects',
        kind: 'search',
        filter: { search: fragmentOf(c.rng, oneOf(c.rng, [...PROJECT_WORDS, ...PROJECT_KINDS])) },
      }),
  ],
  [12, (c) => getOp('users', oneOf(c.rng, c.tenant.users).id)],
  [
    5,
    (c) =>
      c.tenant.projects.length > 0
        ? getOp('projects', oneOf(c.rng, c.tenant.projects).id)
        : getOp('users', oneOf(c.rng, c.tenant.users).id),
  ],
  [1, (c) => getOp('roles', oneOf(c.rng, c.tenant.roles).id)],
  [3, userUpdate],
  [4, (c) => projectEdit(c, serial)],
  [3, () => REFRESH],
];

export const mixOp = (c: Console): Op => weighted(c.rng, MIX)(c);

/** Random users pages only: page, size, sort and direction; what the floor answers too. */
export const usersPageOp = (c: Console): Op =>
  pageOp(c, { entity: 'users', kind: 'list', filter: {} });

/** The same users page again and again: what a cache of answers is best at. */
export const repeatedPageOp = (c: Console): Op =>
  pageOp(c, {
    entity: 'users',
    kind: 'list',
    filter: {},
    pageSize: 10,
    sort: { field: 'email', direction: 0 },
    depth: 'first',
  });
