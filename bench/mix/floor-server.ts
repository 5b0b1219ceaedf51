/**
 * The bare floor for bench/mix.ts: node:http and pg answering POST /api/v1.0/users/page with
 * the same rows (id, names, e-mail, role and its name, status, invited, dates) and the exact
 * count, from the same database, with nothing else: no framework, no validation library, no
 * token check (the tenant is read from the token's payload unverified), no logging. One
 * prepared statement per page: the page's ids from the sort's index, their rows, and the
 * count (from the trigger-kept user_counts unless there is a search), in one round trip.
 * What it reaches is what this machine allows a Node.js server on this database.
 *
 *   PORT=9000 DATABASE_URL=postgres://… POOL_SIZE=10 node --import tsx bench/mix/floor-server.ts
 */
import { createServer, type ServerResponse } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 10),
});

const SORT_COLUMNS: Record<string, string> = {
  email: 'u.email',
  firstName: 'u.first_name',
  lastName: 'u.last_name',
  status: 'u.status',
  role: 'r.name',
  createdAt: 'u.created_at',
};

interface PageBody {
  pageIndex?: number;
  pageSize?: number;
  filter?: { search?: string; status?: string; roleId?: string };
  listSort?: { field?: string; direction?: number };
}

/**
 * The statement for one shape of request (sort, direction, which filters), built once:
 * $1 tenant, $2 limit, $3 offset, then the search, status and role when the shape has them.
 */
const statements = new Map<string, string>();
function statementFor(field: string, descending: boolean, filters: Record<string, boolean>) {
  const key = `${field}:${descending}:${filters.search}:${filters.status}:${filters.roleId}`;
  let text = statements.get(key);
  if (text) return { key, text };
  const direction = descending ? 'desc' : 'asc';
  let next = 4;
  const search = filters.search ? `$${next++}` : undefined;
  const status = filters.status ? `$${next++}` : undefined;
  const role = filters.roleId ? `$${next++}` : undefined;
  const where = ['u.tenant_id = $1'];
  if (search) {
    where.push(
      `(u.first_name ilike ${search} or u.last_name ilike ${search} or u.email ilike ${search})`,
    );
  }
  if (status) where.push(`u.status = ${status}`);
  if (role) where.push(`u.role_id = ${role}`);
  const counted = search
    ? `select count(*)::int total from users u where ${where.join(' and ')}`
    : `select coalesce(sum(n), 0)::int total from user_counts c where c.tenant_id = $1
        ${status ? `and c.status = ${status}` : ''} ${role ? `and c.role_id = ${role}` : ''}`;
  const sortJoin = field === 'role' ? 'join roles r on r.id = u.role_id' : '';
  text = `with ids as (
      select u.id from users u ${sortJoin} where ${where.join(' and ')}
      order by ${SORT_COLUMNS[field]} ${direction}, u.id ${direction} limit $2 offset $3),
    total as (${counted})
    select total.total, u.id, u.first_name, u.last_name, u.email, u.role_id, r.name as role,
      u.status, u.password_hash is null as invited, u.created_at, u.updated_at
    from total left join (ids join users u on u.id = ids.id join roles r on r.id = u.role_id)
      on true
    order by ${SORT_COLUMNS[field]} ${direction}, u.id ${direction}`;
  statements.set(key, text);
  return { key, text };
}

/** The tenant of a bearer token, read from its payload without checking the signature. */
function tenantOf(authorization: string | undefined): string | undefined {
  const payload = authorization?.startsWith('Bearer ') ? authorization.split('.')[1] : undefined;
  if (!payload) return undefined;
  try {
    return (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { tenant_id?: string })
      .tenant_id;
  } catch {
    return undefined;
  }
}

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function send(response: ServerResponse, status: number, body: string) {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

async function page(tenantId: string, body: PageBody) {
  const pageIndex = body.pageIndex ?? 1;
  const pageSize = body.pageSize ?? 10;
  const field = body.listSort?.field ?? 'email';
  if (!SORT_COLUMNS[field] || pageSize < 1 || pageSize > 100 || pageIndex < 1) return undefined;
  const filter = body.filter ?? {};
  const search = filter.search?.trim();
  const { key, text } = statementFor(field, body.listSort?.direction === 1, {
    search: !!search,
    status: !!filter.status,
    roleId: !!filter.roleId,
  });
  const values: unknown[] = [tenantId, pageSize, (pageIndex - 1) * pageSize];
  if (search) values.push(escapeLike(search));
  if (filter.status) values.push(filter.status);
  if (filter.roleId) values.push(filter.roleId);
  const { rows } = await pool.query({ name: key, text, values });
  const data = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      roleId: row.role_id,
      role: row.role,
      status: row.status,
      invited: row.invited,
      createdAt: (row.created_at as Date).toISOString(),
      updatedAt: (row.updated_at as Date).toISOString(),
    }));
  return { data: { data, pageIndex, pageSize, totalCount: rows[0]?.total ?? 0 } };
}

createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/readyz') return send(response, 200, '{}');
  if (request.method !== 'POST' || request.url !== '/api/v1.0/users/page') {
    return send(response, 404, '{"title":"Not Found"}');
  }
  const tenantId = tenantOf(request.headers.authorization);
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (!tenantId) return send(response, 401, '{"title":"Unauthorized"}');
    let body: PageBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString()) as PageBody;
    } catch {
      return send(response, 400, '{"title":"Bad Request"}');
    }
    page(tenantId, body).then(
      (answer) =>
        answer
          ? send(response, 200, JSON.stringify(answer))
          : send(response, 400, '{"title":"Bad Request"}'),
      () => send(response, 500, '{"title":"Internal Server Error"}'),
    );
  });
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
