import type { Tenant } from '@tc/contract/tenants';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /api/v1.0/tenants/{id}/logo: the tenant shows its initial again; the file is deleted. */
export async function removeTenantLogo(id: string): Promise<Tenant> {
  const answer = await apiRequest<{ data: Tenant }>(
    `/api/v1.0/tenants/${encodeURIComponent(id)}/logo`,
    { method: 'DELETE' },
  );
  return answer.data;
}
