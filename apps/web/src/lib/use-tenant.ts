import type { TenantInfo } from '@tc/contract/identity';
import { useQuery } from '@tanstack/react-query';
import { identifyTenantQuery } from './identify-tenant';

/** The tenant of this host; only read below the tenant gate, where it is always loaded. */
export function useTenant(): TenantInfo | undefined {
  return useQuery(identifyTenantQuery()).data;
}
