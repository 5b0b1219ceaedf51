import { authRoutes } from '@tc/contract/routes/auth';
import { clientRoutes } from '@tc/contract/routes/clients';
import type { ClientCreate, ClientUpdate, ClientWithSecret } from '@tc/contract/clients';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from '../../../lib/api';
import { deleteEntity, useEntityMutation } from '../../../lib/entity-api';

/**
 * What a client dialog confirms: a create or update, answered with the row and, when one was
 * just made, the secret (shown once); or a delete, answered with nothing.
 */
export function useClientSave(mode: string, id: string | undefined) {
  return useEntityMutation(
    'clients',
    async (values: ClientCreate | ClientUpdate): Promise<ClientWithSecret | undefined> => {
      if (mode === 'delete') {
        await deleteEntity('clients', id!);
        return undefined;
      }
      return mode === 'add'
        ? callRoute(clientRoutes.create, { body: values as ClientCreate })
        : callRoute(clientRoutes.update, { body: values as ClientUpdate });
    },
  );
}

/** A new secret for a confidential client; the previous one stops working. */
export function useRotateSecret(id: string) {
  return useEntityMutation<void, string>('clients', async () => {
    const answer = await callRoute(clientRoutes.rotateSecret, { params: { id } });
    return answer.clientSecret;
  });
}

/**
 * The signed-in user, for the realm their tenant's issuer is named by. The same query as the
 * layout's user card, so it is usually in the cache already.
 */
export const useSignedInRealm = () =>
  useQuery({ queryKey: ['auth', 'me'], queryFn: () => callRoute(authRoutes.me) }).data?.realm;
