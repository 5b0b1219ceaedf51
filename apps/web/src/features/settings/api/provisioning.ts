import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProvisioningSettings } from '@tc/contract/provisioning';
import { settingsRoutes } from '@tc/contract/routes/settings';
import { callRoute } from '../../../lib/api';

export const provisioningKey = ['settings', 'provisioning'] as const;

export const getProvisioning = () => callRoute(settingsRoutes.provisioning);

export const useProvisioning = () =>
  useQuery({ queryKey: provisioningKey, queryFn: getProvisioning });

export const updateProvisioning = (body: ProvisioningSettings) =>
  callRoute(settingsRoutes.updateProvisioning, { body });

/** The answer is the choices as saved: it replaces the cached ones. */
export function useUpdateProvisioning() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateProvisioning,
    onSuccess: (settings) => client.setQueryData(provisioningKey, settings),
  });
}
