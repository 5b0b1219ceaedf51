import { z } from 'zod';
import { statusSchema } from '@tc/contract/paging';
import { projectPageRequestSchema, type Project } from '@tc/contract/projects';
import { rolePageRequestSchema } from '@tc/contract/roles';
import type { User } from '@tc/contract/users';
import { permissionPageRequestSchema } from '@tc/contract/permissions-api';
import type { ServiceContext } from '../../http/crud-routes';
import { loggableError } from '../../http/logging';
import { AppError } from '../../http/problem';
import { permissionsService } from '../permissions';
import { pageProjects } from '../projects';
import { rolesService } from '../roles';
import { findOwners, findRole, may, userPage } from './lookups';
import type { ToolCall, ToolDefinition } from './provider';

/**
 * Read-only tools the model may call (OpenAI function tools). Each runs through the same
 * service functions as the API, with the caller's token: its tenant scopes every query and a
 * tool needs the permission its API route needs. Every field a tool answers is one the caller
 * could read through the API; a lookup into another area (a role or an owner by name) sees
 * only what the caller's permissions show (lookups.ts). A refusal is told to the model.
 */
interface Tool<Args extends z.ZodType> {
  name: string;
  description: string;
  /** The permission of the matching API route; none: the tool checks per part. */
  permission?: string;
  args: Args;
  run(ctx: ServiceContext, args: z.output<Args>): Promise<unknown>;
}

const tool = <Args extends z.ZodType>(definition: Tool<Args>) => definition;

const limit = z.number().int().min(1).max(50).default(20).describe('At most this many rows.');
const status = statusSchema.optional().describe('Only users with this status.');
const roleName = z.string().trim().min(1).max(100).optional().describe('Only users of this role.');

const userRow = (user: User) => ({
  name: `${user.firstName} ${user.lastName}`,
  email: user.email,
  role: user.role,
  status: user.status,
  invited: user.invited,
});

const projectRow = (project: Project) => ({
  name: project.name,
  projectNumber: project.projectNumber,
  owner: project.owner,
  budget: project.budget,
  country: project.country,
  city: project.city,
  people: project.people.map((person) => person.name),
});

const noRole = (name: string) => ({ error: `There is no role named "${name}".` });

const TOOLS = [
  tool({
    name: 'count_users',
    description: 'Counts the users of this tenant, optionally by status and role.',
    permission: 'users:read',
    args: z.object({ status, roleName }),
    async run(ctx, args) {
      const role = args.roleName ? await findRole(ctx, args.roleName) : undefined;
      if (args.roleName && !role) return noRole(args.roleName);
      const page = await userPage(ctx, { status: args.status, roleId: role?.id }, 1);
      return { count: page.totalCount, status: args.status ?? 'any', role: role?.name ?? 'any' };
    },
  }),
  tool({
    name: 'list_users',
    description: 'Lists users of this tenant; search matches names and e-mail addresses.',
    permission: 'users:read',
    args: z.object({
      search: z.string().trim().max(200).optional().describe('Part of a name or e-mail.'),
      status,
      roleName,
      limit,
    }),
    async run(ctx, args) {
      const role = args.roleName ? await findRole(ctx, args.roleName) : undefined;
      if (args.roleName && !role) return noRole(args.roleName);
      const filter = { search: args.search, status: args.status, roleId: role?.id };
      const page = await userPage(ctx, filter, args.limit);
      return { totalCount: page.totalCount, users: page.data.map(userRow) };
    },
  }),
  tool({
    name: 'list_projects',
    description:
      'Lists projects of this tenant with owner, budget and place; ownerName finds the ' +
      "projects a person owns, search matches a project's name or number.",
    permission: 'projects:read',
    args: z.object({
      ownerName: z.string().trim().min(1).max(200).optional().describe("Part of the owner's name."),
      search: z.string().trim().max(200).optional().describe('Part of a project name or number.'),
      limit,
    }),
    async run(ctx, args) {
      const page = (ownerId?: string) =>
        pageProjects({
          ...ctx,
          request: projectPageRequestSchema.parse({
            pageSize: args.limit,
            filter: { search: args.search, ownerId },
          }),
        });
      if (!args.ownerName) {
        const all = await page();
        return { totalCount: all.totalCount, projects: all.data.map(projectRow) };
      }
      const owners = await findOwners(ctx, args.ownerName);
      if (owners.length === 0) return { error: `No user's name contains "${args.ownerName}".` };
      const pages = await Promise.all(owners.map((owner) => page(owner.id)));
      return {
        owners: owners.map((owner) => owner.name),
        totalCount: pages.reduce((sum, one) => sum + one.totalCount, 0),
        projects: pages.flatMap((one) => one.data.map(projectRow)).slice(0, args.limit),
      };
    },
  }),
  tool({
    name: 'list_roles',
    description: 'Lists the roles of this tenant with their permissions and number of users.',
    permission: 'roles:read',
    args: z.object({}),
    async run(ctx) {
      const request = rolePageRequestSchema.parse({ pageSize: 100 });
      const page = await rolesService.page({ ...ctx, request });
      return {
        totalCount: page.totalCount,
        roles: page.data.map(({ name, description, status, permissions, userCount }) => ({
          name,
          description,
          status,
          permissions,
          userCount,
        })),
      };
    },
  }),
  tool({
    name: 'tenant_summary',
    description:
      'Key figures of this tenant: users by status, roles, permissions and projects ' +
      '(each only if the signed-in user may read it).',
    args: z.object({}),
    async run(ctx) {
      const summary: Record<string, unknown> = { tenant: ctx.caller.realm };
      if (may(ctx, 'users:read')) {
        const [all, active, inactive] = await Promise.all(
          [undefined, 'active', 'inactive'].map((s) => userPage(ctx, { status: s }, 1)),
        );
        summary.users = {
          total: all!.totalCount,
          active: active!.totalCount,
          inactive: inactive!.totalCount,
        };
      }
      if (may(ctx, 'roles:read')) {
        const request = rolePageRequestSchema.parse({ pageSize: 1 });
        summary.roles = (await rolesService.page({ ...ctx, request })).totalCount;
      }
      if (may(ctx, 'permissions:read')) {
        const request = permissionPageRequestSchema.parse({ pageSize: 1 });
        summary.permissions = (await permissionsService.page({ ...ctx, request })).totalCount;
      }
      if (may(ctx, 'projects:read')) {
        const request = projectPageRequestSchema.parse({ pageSize: 1 });
        summary.projects = (await pageProjects({ ...ctx, request })).totalCount;
      }
      const hidden = ['users', 'roles', 'permissions', 'projects'].filter((k) => !(k in summary));
      if (hidden.length > 0) summary.notPermitted = hidden;
      return summary;
    },
  }),
];

/** What the model is offered, in the chat-completions `tools` format. */
export const TOOL_DEFINITIONS: ToolDefinition[] = TOOLS.map((t) => {
  // The draft URI is noise to a chat-completions API.
  const parameters: Record<string, unknown> = z.toJSONSchema(t.args, { io: 'input' });
  delete parameters.$schema;
  return {
    type: 'function',
    function: { name: t.name, description: t.description, parameters },
  };
});

/** Runs one tool call for the caller; the answer is the JSON text sent back to the model. */
export async function runTool(
  ctx: ServiceContext,
  call: ToolCall,
  log: { error(obj: object, msg: string): void },
): Promise<string> {
  const found = TOOLS.find((t) => t.name === call.function.name) as Tool<z.ZodType> | undefined;
  if (!found) return JSON.stringify({ error: `There is no tool named ${call.function.name}.` });
  if (found.permission && !ctx.caller.permissions.includes(found.permission)) {
    return JSON.stringify({
      error: `The signed-in user lacks the permission "${found.permission}" to look this up.`,
    });
  }
  let input: unknown;
  try {
    input = JSON.parse(call.function.arguments || '{}');
  } catch {
    return JSON.stringify({ error: 'The arguments are not valid JSON.' });
  }
  const args = found.args.safeParse(input ?? {});
  if (!args.success) {
    return JSON.stringify({ error: `Invalid arguments: ${z.prettifyError(args.error)}` });
  }
  try {
    return JSON.stringify(await found.run(ctx, args.data));
  } catch (error) {
    if (error instanceof AppError) return JSON.stringify({ error: error.detail });
    log.error({ err: loggableError(error), tool: found.name }, 'assistant tool failed');
    return JSON.stringify({ error: 'The lookup failed.' });
  }
}
