import type { TenantInfo } from '@tc/contract/identity';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { tenantRoutes } from '@tc/contract/routes/tenants';
import { callRoute } from './api';
import { storeTenant } from './tenant-store';

/** GET /tenants/identify: which tenant this host (or Tenant-ID header) belongs to. */
export async function identifyTenant(tenantId?: string | null): Promise<TenantInfo> {
  const headers: Record<string, string> = tenantId ? { 'Tenant-ID': tenantId } : {};
  return callRoute(tenantRoutes.identify, { headers });
}

export const identifyTenantQuery = (tenantId?: string | null) =>
  queryOptions({
    queryKey: ['tenant', 'identify', tenantId ?? 'host'],
    queryFn: async () => {
      const tenant = await identifyTenant(tenantId);
      if (!tenantId) storeTenant(tenant);
      return tenant;
    },
    retry: false,
    staleTime: 5 * 60_000,
  });

export const useIdentifyTenant = (tenantId?: string | null) =>
  useQuery(identifyTenantQuery(tenantId));
