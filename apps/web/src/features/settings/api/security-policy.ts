import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecurityPolicy } from '@tc/contract/security';
import { settingsRoutes } from '@tc/contract/routes/settings';
import { callRoute } from '../../../lib/api';

export const securityPolicyKey = ['settings', 'security'] as const;

export const getSecurityPolicy = () => callRoute(settingsRoutes.securityPolicy);

export const useSecurityPolicy = () =>
  useQuery({ queryKey: securityPolicyKey, queryFn: getSecurityPolicy });

export const updateSecurityPolicy = (body: SecurityPolicy) =>
  callRoute(settingsRoutes.updateSecurityPolicy, { body });

/** The answer is the policy as saved: it replaces the cached one. */
export function useUpdateSecurityPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateSecurityPolicy,
    onSuccess: (policy) => client.setQueryData(securityPolicyKey, policy),
  });
}
