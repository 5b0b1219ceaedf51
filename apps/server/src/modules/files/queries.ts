import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { files } from '../../db/schema/tenants';

export async function deleteFile(tx: Database, fileId: string): Promise<void> {
  await tx.delete(files).where(eq(files.id, fileId));
}

export async function readFile(db: Database, fileId: string) {
  const [file] = await db.select().from(files).where(eq(files.id, fileId));
  return file;
}
