/**
 * One console alone, one request after the other, over every shape of list request: each
 * sort column in both directions (random pages, then deep ones near the last), each filter,
 * searches of 2, 3 and 4 letters, whole names, an e-mail domain, a piece that matches nothing,
 * later pages of a search, and single rows. Each sample draws its own page, fragment or row,
 * so no answer is asked for twice on purpose. Reported per shape: p50, p99, max.
 */
import { answerOf, newTally, record } from './load';
import { random, type Console } from './console';
import { LAST_NAMES, MAIL_DOMAINS, PERMISSION_NAMES, PROJECT_WORDS, ROLE_NAMES } from './names';
import { round, SAMPLES, SHAPE_BUDGET_MS } from './settings';
import {
  fragmentOf,
  getOp,
  oneOf,
  pageOp,
  SORT_FIELDS,
  userSearch,
  type Entity,
  type Op,
} from './requests';

interface Shape {
  name: string;
  /** Judged by the "every sort × direction" target besides the every-shape one. */
  sort?: boolean;
  /** A search's later page: its first page is asked first (not counted) to learn the total. */
  primed?: boolean;
  op: (c: Console, rng: () => number) => Op;
}

const DIRECTIONS = [0, 1] as const;
const dirName = (direction: 0 | 1) => (direction === 0 ? 'asc' : 'desc');

function sortShapes(entity: Entity, depth: 'any' | 'deep', judged: boolean): Shape[] {
  return SORT_FIELDS[entity].flatMap((field) =>
    DIRECTIONS.map((direction) => ({
      name: `${entity} ${depth === 'deep' ? 'deep pages' : 'sort'} ${field} ${dirName(direction)}`,
      sort: judged,
      op: (c: Console, rng: () => number) =>
        pageOp(
          c,
          { entity, kind: 'list', filter: {}, pageSize: 10, sort: { field, direction }, depth },
          rng,
        ),
    })),
  );
}

const list = (
  name: string,
  entity: Entity,
  filter: (c: Console, rng: () => number) => Record<string, string>,
  extra: { pageSize?: number; kind?: 'list' | 'search'; primed?: boolean } = {},
): Shape => ({
  name,
  primed: extra.primed,
  op: (c, rng) =>
    pageOp(
      c,
      {
        entity,
        kind: extra.kind ?? 'list',
        filter: filter(c, rng),
        pageSize: extra.pageSize ?? 10,
        depth: extra.kind === 'search' && !extra.primed ? 'first' : 'any',
      },
      rng,
    ),
});

const search = (
  name: string,
  entity: Entity,
  text: (rng: () => number) => string,
  more: (c: Console) => Record<string, string> = () => ({}),
  primed = false,
) =>
  list(name, entity, (c, rng) => ({ search: text(rng), ...more(c) }), { kind: 'search', primed });

const roleNamed = (c: Console, name: string) =>
  (c.tenant.roles.find((role) => role.name === name) ?? c.tenant.roles[0]!).id;

function shapes(): Shape[] {
  return [
    ...sortShapes('users', 'any', true),
    ...sortShapes('users', 'deep', true),
    list('users page size 100', 'users', () => ({}), { pageSize: 100 }),
    list('users status active', 'users', () => ({ status: 'active' })),
    list('users status inactive', 'users', () => ({ status: 'inactive' })),
    list('users role Member (common)', 'users', (c) => ({ roleId: roleNamed(c, 'Member') })),
    list('users role Admin (rare)', 'users', (c) => ({ roleId: roleNamed(c, 'Admin') })),
    list('users status + role', 'users', (c) => ({
      status: 'inactive',
      roleId: roleNamed(c, 'Editor'),
    })),
    search('users search 2 letters', 'users', (rng) => userSearch(rng, 2)),
    search('users search 3 letters', 'users', (rng) => userSearch(rng, 3)),
    search('users search 4 letters', 'users', (rng) => userSearch(rng, 4)),
    search('users search whole last name', 'users', (rng) => oneOf(rng, LAST_NAMES)),
    search('users search e-mail domain', 'users', (rng) =>
      fragmentOf(rng, oneOf(rng, MAIL_DOMAINS), 6),
    ),
    search('users search no match', 'users', (rng) => `qx${'zjvk'[Math.floor(rng() * 4)]}q`),
    search(
      'users search + status',
      'users',
      (rng) => userSearch(rng),
      () => ({ status: 'inactive' }),
    ),
    search('users search later pages', 'users', (rng) => userSearch(rng, 2), undefined, true),
    ...sortShapes('roles', 'any', false),
    list('roles status inactive', 'roles', () => ({ status: 'inactive' })),
    search('roles search', 'roles', (rng) => fragmentOf(rng, oneOf(rng, ROLE_NAMES))),
    ...sortShapes('permissions', 'any', false),
    list('permissions of a role', 'permissions', (c, rng) => ({
      roleId: oneOf(rng, c.tenant.roles).id,
    })),
    search('permissions search', 'permissions', (rng) =>
      fragmentOf(rng, oneOf(rng, PERMISSION_NAMES)),
    ),
    ...sortShapes('projects', 'any', false),
    ...sortShapes('projects', 'deep', false),
    list('projects of an owner', 'projects', (c, rng) => ({
      ownerId: oneOf(rng, c.tenant.ownerIds),
    })),
    list('projects in a country', 'projects', (_, rng) => ({
      country: oneOf(rng, ['DE', 'US', 'BR']),
    })),
    search('projects search', 'projects', (rng) => fragmentOf(rng, oneOf(rng, PROJECT_WORDS))),
    { name: 'users get', op: (c, rng) => getOp('users', oneOf(rng, c.tenant.users).id) },
    { name: 'projects get', op: (c, rng) => getOp('projects', oneOf(rng, c.tenant.projects).id) },
  ];
}

export interface SoloShape {
  shape: string;
  judgedAsSort: boolean;
  n: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  problems: Record<string, number>;
  errorSamples: Record<string, string>;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/**
 * Every shape, `SAMPLES` times each after two uncounted warm-up requests, or fewer when a shape
 * has used its time budget.
 */
export async function soloPass(c: Console): Promise<SoloShape[]> {
  const results: SoloShape[] = [];
  for (const shape of shapes()) {
    const tally = newTally('list');
    const started = performance.now();
    for (let i = -2; i < SAMPLES; i += 1) {
      // A shape that takes seconds a request is judged on fewer samples, not for an hour.
      if (i > 0 && performance.now() - started > SHAPE_BUDGET_MS) break;
      const seed = Math.floor(c.rng() * 2 ** 32);
      if (shape.primed) await answerOf(c, shape.op(c, random(seed)));
      const { answer, problem } = await answerOf(c, shape.op(c, random(seed)));
      if (i < 0) continue;
      record(tally, answer, problem);
    }
    const sorted = [...tally.ms].sort((a, b) => a - b);
    const non2xx = [...tally.statuses].reduce(
      (sum, [status, n]) => (status >= 200 && status < 300 ? sum : sum + n),
      0,
    );
    results.push({
      shape: shape.name,
      judgedAsSort: shape.sort ?? false,
      n: sorted.length,
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[sorted.length - 1] ?? 0),
      non2xx,
      problems: Object.fromEntries(tally.problems),
      errorSamples: Object.fromEntries(tally.errorSamples),
    });
    console.error(
      `    ${shape.name}: p50 ${results.at(-1)!.p50} ms, p99 ${results.at(-1)!.p99} ms`,
    );
  }
  return results;
}
