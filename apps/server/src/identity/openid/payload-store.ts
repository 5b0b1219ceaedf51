import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { clientMetadata, type ClientRow, type ConsoleOrigins } from './client-metadata';
import type { Database } from '../../db/database';
import { oidcPayloads } from '../../db/schema/oidc';

/**
 * The OpenID provider's storage (its "adapter"): one table for every kind of artifact, each
 * row kept within its tenant so that an artifact of one realm is never found at another. The
 * provider decides what is stored and for how long; this only keeps it.
 */
export class PayloadStore implements Adapter {
  constructor(
    private readonly db: Database,
    private readonly tenantId: string,
    private readonly model: string,
  ) {}

  private readonly live = () =>
    and(
      eq(oidcPayloads.tenantId, this.tenantId),
      or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`now()`)),
    );

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    const row = {
      payload: payload as Record<string, unknown>,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      expiresAt,
    };
    await this.db
      .insert(oidcPayloads)
      .values({ model: this.model, id, tenantId: this.tenantId, ...row })
      .onConflictDoUpdate({
        target: [oidcPayloads.model, oidcPayloads.id],
        set: row,
        // A row of another tenant with the same id is never overwritten.
        setWhere: eq(oidcPayloads.tenantId, this.tenantId),
      });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcPayloads.id, id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcPayloads.uid, uid));
  }

  // The device flow is not enabled: nothing is ever stored under a user code.
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  private async findWhere(condition: ReturnType<typeof eq>) {
    const [row] = await this.db
      .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.model, this.model), condition, this.live()))
      .limit(1);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt
      ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
      : payload;
  }

  async consume(id: string): Promise<void> {
    await this.db
      .update(oidcPayloads)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id), this.live()));
  }

  async destroy(id: string): Promise<void> {
    await this.db
      .delete(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.model, this.model),
          eq(oidcPayloads.id, id),
          eq(oidcPayloads.tenantId, this.tenantId),
        ),
      );
  }

  /** Everything issued under one grant, of every kind: a replayed code ends them all. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db
      .delete(oidcPayloads)
      .where(and(eq(oidcPayloads.grantId, grantId), eq(oidcPayloads.tenantId, this.tenantId)));
  }
}

/** Applications are read from the tenant's `clients` table, never written by the provider. */
export class ClientStore extends PayloadStore {
  constructor(
    db: Database,
    tenantId: string,
    model: string,
    private readonly findRow: (clientId: string) => Promise<ClientRow | undefined>,
    private readonly console: ConsoleOrigins,
  ) {
    super(db, tenantId, model);
  }

  override async find(clientId: string): Promise<AdapterPayload | undefined> {
    // PostgreSQL takes no NUL in a query's text (a Basic header may decode to one): no client.
    if (clientId.includes('\u0000')) return undefined;
    const row = await this.findRow(clientId);
    return row ? (clientMetadata(row, this.console) as AdapterPayload) : undefined;
  }
}
