import { createHash } from 'node:crypto';
import type { Database } from '../../db/database';
import { files } from '../../db/schema/tenants';
import { MAX_IMAGE_BYTES } from '../../http/image-body';
import { AppError } from '../../http/problem';

/** The image type from the bytes' signature; the name or declared type of an upload is not trusted. */
export function sniffImageType(bytes: Buffer): string | undefined {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'image/jpeg';
  const ascii = bytes.subarray(0, 12).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** Stores a PNG, JPEG, WebP or GIF of at most 2 MB for the tenant; anything else → 415 / 413. */
export async function storeImage(
  tx: Database,
  tenantId: string,
  bytes: Buffer,
): Promise<{ id: string; url: string }> {
  if (bytes.length > MAX_IMAGE_BYTES) throw new AppError(413, 'image.too_large');
  const contentType = sniffImageType(bytes);
  if (!contentType) {
    throw new AppError(415, 'image.unsupported');
  }
  const [file] = await tx
    .insert(files)
    .values({
      tenantId,
      contentType,
      content: bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    })
    .returning({ id: files.id });
  return { id: file!.id, url: fileUrl(file!.id) };
}

/** Files are served by id: an unguessable, immutable address that an <img> can load. */
export const fileUrl = (fileId: string) => `/api/v1.0/files/${fileId}`;
