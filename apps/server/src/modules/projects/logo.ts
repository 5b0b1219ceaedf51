import { eq } from 'drizzle-orm';
import type { Project } from '@tc/contract/projects';
import { projects } from '../../db/schema/projects';
import type { ServiceContext } from '../../http/crud-routes';
import { deleteFile, storeImage } from '../files';
import { findProject } from './queries';
import { audit } from './service';

/**
 * Replaces the project's logo with `bytes` (null removes it); the previous file is deleted in
 * the same transaction. storeImage refuses non-images (415) and images over 2 MB (413).
 */
export async function setProjectLogo(
  context: ServiceContext & { id: string; bytes: Buffer | null },
): Promise<Project> {
  const { db, caller, id, bytes } = context;
  const tenantId = caller.tenantId;
  return db.transaction(async (tx) => {
    const { row: before, logoFileId } = await findProject(tx, tenantId, id, true);
    if (!bytes && !logoFileId) return before;
    const stored = bytes ? await storeImage(tx, tenantId, bytes) : undefined;
    await tx
      .update(projects)
      .set({ logoFileId: stored?.id ?? null, updatedAt: new Date() })
      .where(eq(projects.id, id));
    if (logoFileId) await deleteFile(tx, logoFileId);
    const { row } = await findProject(tx, tenantId, id);
    await audit(tx, context, 'update', id, { before, after: row });
    return row;
  });
}
