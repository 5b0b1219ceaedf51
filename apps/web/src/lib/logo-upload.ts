import { apiRequest } from './api-client';
import type { EntityName } from './entity-api';

/**
 * What the server stores as a logo (apps/server/src/modules/files/service.ts, storeImage):
 * PNG, JPEG, WebP or GIF of at most 2 MB. Checked here too so a wrong file is refused before
 * anything is sent; the server still decides by the bytes (a renamed text file answers 415).
 */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export type LogoProblem = 'type' | 'size';

/** Why a chosen file cannot be a logo, or undefined when it can. */
export function logoProblem(
  file: File,
  accept: readonly string[] = LOGO_TYPES,
  maxBytes = LOGO_MAX_BYTES,
): LogoProblem | undefined {
  if (!accept.includes(file.type)) return 'type';
  return file.size > maxBytes ? 'size' : undefined;
}

/** What a dialog does with the logo once its entity is saved. */
export type LogoChange = { kind: 'keep' } | { kind: 'upload'; file: File } | { kind: 'remove' };

/** The entities that have a logo route: PUT / DELETE /api/v1.0/{entity}/{id}/logo. */
export type LogoEntity = Extract<EntityName, 'tenants' | 'projects'>;

const logoPath = (entity: LogoEntity, id: string) =>
  `/api/v1.0/${entity}/${encodeURIComponent(id)}/logo`;

/**
 * Uploads or removes the logo of an entity just saved (the upload needs its id) and answers
 * the entity as it is then. The upload is the image's raw bytes as the body, not multipart
 * (413 too large, 415 not an image); a removal is only sent when there is a logo to remove.
 */
export async function saveLogo<Row extends { id: string; logoUrl: string | null }>(
  entity: LogoEntity,
  saved: Row,
  change: LogoChange,
): Promise<Row> {
  if (change.kind === 'upload') {
    const answer = await apiRequest<{ data: Row }>(logoPath(entity, saved.id), {
      method: 'PUT',
      body: change.file,
    });
    return answer.data;
  }
  if (change.kind === 'remove' && saved.logoUrl) {
    const answer = await apiRequest<{ data: Row }>(logoPath(entity, saved.id), {
      method: 'DELETE',
    });
    return answer.data;
  }
  return saved;
}
