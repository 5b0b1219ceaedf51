import type { Tenant } from '@tc/contract/tenants';
import { apiRequest } from '../../../lib/api-client';

/**
 * What the server stores as a logo (apps/server/src/modules/files/service.ts): PNG, JPEG, WebP
 * or GIF, at most 2 MB. The server checks the bytes again; checking here spares an upload
 * that would be refused and says why at once.
 */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/** The server's own words for a refused file, so the 'validation' namespace translates them. */
export const LOGO_TYPE_MESSAGE = 'Upload a PNG, JPEG, WebP or GIF image.';
export const LOGO_SIZE_MESSAGE = 'The image is larger than 2 MB.';

/** Why the server would refuse this file, or undefined when it may be sent. */
export function logoProblem(file: File): string | undefined {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return LOGO_TYPE_MESSAGE;
  if (file.size > MAX_LOGO_BYTES) return LOGO_SIZE_MESSAGE;
  return undefined;
}

/**
 * PUT /api/v1.0/tenants/{id}/logo with the image's raw bytes as the body (no multipart);
 * answers the tenant with its new `logoUrl`. 413 too large, 415 not an image.
 */
export async function uploadTenantLogo(id: string, file: File): Promise<Tenant> {
  const answer = await apiRequest<{ data: Tenant }>(
    `/api/v1.0/tenants/${encodeURIComponent(id)}/logo`,
    { method: 'PUT', body: file },
  );
  return answer.data;
}
