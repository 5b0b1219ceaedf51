import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import { conflict, notFound } from '../../http/problem';
import { sendInvitation } from '../../mail/account-mail';

/** A fresh invitation for a user of the caller's tenant; the old link stops working. */
export async function resendInvitation(input: {
  db: Database;
  config: Config;
  tenantId: string;
  acceptLanguage?: string;
  userId: string;
  inviterId: string;
}): Promise<void> {
  await input.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(users.tenantId, input.tenantId), eq(users.id, input.userId)))
      .for('update');
    if (!user) throw notFound('user.not_found');
    if (user.passwordHash !== null) {
      throw conflict('account.password_already_set');
    }
    await sendInvitation(tx, input.config.publicUrl, {
      userId: input.userId,
      inviterId: input.inviterId,
      acceptLanguage: input.acceptLanguage,
    });
  });
}
