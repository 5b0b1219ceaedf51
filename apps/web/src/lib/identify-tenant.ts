import type { TenantInfo } from '@tc/contract/identity';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { storeTenant } from './tenant-store';

/** GET /api/v1.0/tenants/identify: which tenant this host (or Tenant-ID header) belongs to. */
export async function identifyTenant(tenantId?: string | null): Promise<TenantInfo> {
  const headers: Record<string, string> = tenantId ? { 'Tenant-ID': tenantId } : {};
  const body = await apiRequest<{ data: TenantInfo }>('/api/v1.0/tenants/identify', { headers });
  return body.data;
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
