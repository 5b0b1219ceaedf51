import type { Project } from '@tc/contract/projects';
import { apiRequest } from '../../../lib/api-client';

/**
 * What the server stores (apps/server/src/modules/files/service.ts): PNG, JPEG, WebP or GIF of
 * at most 2 MB. Checked here too so a wrong file is refused before anything is sent; the
 * server still decides by the bytes (a renamed text file answers 415).
 */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export type LogoProblem = 'type' | 'size';

/** Why a chosen file cannot be a logo, or undefined when it can. */
export function logoProblem(file: File): LogoProblem | undefined {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'type';
  return file.size > LOGO_MAX_BYTES ? 'size' : undefined;
}

/** PUT /projects/:id/logo with the image as the raw body; answers the updated project. */
export async function uploadProjectLogo(id: string, file: File): Promise<Project> {
  const answer = await apiRequest<{ data: Project }>(
    `/api/v1.0/projects/${encodeURIComponent(id)}/logo`,
    { method: 'PUT', body: file },
  );
  return answer.data;
}

/** DELETE /projects/:id/logo: the project keeps no logo. */
export async function removeProjectLogo(id: string): Promise<Project> {
  const answer = await apiRequest<{ data: Project }>(
    `/api/v1.0/projects/${encodeURIComponent(id)}/logo`,
    { method: 'DELETE' },
  );
  return answer.data;
}
