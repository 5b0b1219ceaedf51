import type { FastifyInstance } from 'fastify';
import {
  userCreateSchema,
  userPageRequestSchema,
  userPageResponseSchema,
  userSchema,
  userUpdateSchema,
} from '@tc/contract/users';
import type { AppContext } from '../../app-context';
import { registerCrudRoutes } from '../../http/crud-routes';
import { getUser, pageUsers } from './page-users';
import { createUser, removeUser, updateUser } from './service';

/** Spec §7: users/page, users/create, users/update, users/delete/{id}, plus users/{id}. */
export async function usersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCrudRoutes(app, ctx, {
    entity: 'users',
    read: { permission: 'users:read' },
    write: { permission: 'users:write' },
    schemas: {
      row: userSchema,
      page: userPageRequestSchema,
      create: userCreateSchema,
      update: userUpdateSchema,
      pageResponse: userPageResponseSchema,
    },
    service: {
      page: pageUsers,
      get: getUser,
      create: createUser,
      update: updateUser,
      remove: removeUser,
    },
  });
}
