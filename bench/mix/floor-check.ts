/**
 * Before the floor is compared with the server, proof that it answers the same: random users
 * pages (every sort column and direction, some filters and searches) asked of both, and their
 * rows and totals compared field by field.
 */
import type { Console, Target } from './console';
import { pageOp, userSearch, SORT_FIELDS } from './requests';

interface PageAnswer {
  data?: {
    data: Array<Record<string, unknown>>;
    totalCount: number;
    totalCountIsEstimate?: boolean;
  };
}

/** The rows with their fields in one order, whatever order each server writes them in. */
const rowsOf = (answer: PageAnswer) =>
  JSON.stringify(
    answer.data?.data.map((row) =>
      Object.fromEntries(Object.entries(row).sort(([x], [y]) => x.localeCompare(y))),
    ),
  );

export interface FloorCheck {
  compared: number;
  same: number;
  /** The first differences, for the report. */
  differences: string[];
}

export async function checkFloor(
  c: Console,
  real: Target,
  floor: Target,
  count = 40,
): Promise<FloorCheck> {
  const result: FloorCheck = { compared: 0, same: 0, differences: [] };
  for (let i = 0; i < count; i += 1) {
    const field = SORT_FIELDS.users[i % SORT_FIELDS.users.length]!;
    const direction = (Math.floor(i / SORT_FIELDS.users.length) % 2) as 0 | 1;
    const filter: Record<string, string> =
      i % 4 === 1 ? { status: 'inactive' } : i % 4 === 3 ? { search: userSearch(c.rng, 3) } : {};
    // Learn the total first, so the compared page is a random one, not always the first.
    c.use(real);
    const first = pageOp(c, { entity: 'users', kind: 'list', filter, sort: { field, direction } });
    await c.send(first.method, first.path, first.body).then((a) => first.after?.(a));
    const op = pageOp(c, { entity: 'users', kind: 'list', filter, sort: { field, direction } });
    const fromReal = await c.send(op.method, op.path, op.body);
    c.use(floor);
    const fromFloor = await c.send(op.method, op.path, op.body);
    c.close();
    result.compared += 1;
    const a = JSON.parse(fromReal.text) as PageAnswer;
    const b = JSON.parse(fromFloor.text) as PageAnswer;
    // A search matching very many may be counted by an estimate, said so in the answer.
    const sameTotal = a.data?.totalCountIsEstimate || a.data?.totalCount === b.data?.totalCount;
    if (
      fromReal.status === 200 &&
      fromFloor.status === 200 &&
      sameTotal &&
      rowsOf(a) === rowsOf(b)
    ) {
      result.same += 1;
    } else if (result.differences.length < 3) {
      result.differences.push(
        `${op.body}: server ${fromReal.status} ${fromReal.text.slice(0, 200)} | floor ${fromFloor.status} ${fromFloor.text.slice(0, 200)}`,
      );
    }
  }
  return result;
}
