import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { clientMetadata, type ClientRow, type ConsoleOrigins } from './client-metadata';
import type { Database } from '../../db/database';
import { oidcPayloads } from '../../db/schema/oidc';

const at = (name: string) => sql.placeholder(name);

export type ReplayHandler = (model: string, grantId: string | undefined) => Promise<never>;

/**
 * The store's statements, prepared once per database: the provider reads and writes several
 * artifacts on each of its requests, and these are most of its database work.
 */
function prepareStatements(db: Database) {
  const live = and(
    eq(oidcPayloads.tenantId, at('tenantId')),
    or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`now()`)),
  );
  const found = { payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt };
  const inModel = eq(oidcPayloads.model, at('model'));
  return {
    upsert: db
      .insert(oidcPayloads)
      .values({
        model: at('model'),
        id: at('id'),
        tenantId: at('tenantId'),
        payload: at('payload'),
        grantId: at('grantId'),
        uid: at('uid'),
        expiresAt: at('expiresAt'),
      })
      .onConflictDoUpdate({
        target: [oidcPayloads.model, oidcPayloads.id],
        set: {
          payload: sql`excluded.payload`,
          grantId: sql`excluded.grant_id`,
          uid: sql`excluded.uid`,
          expiresAt: sql`excluded.expires_at`,
        },
        // A row of another tenant with the same id is never overwritten.
        setWhere: eq(oidcPayloads.tenantId, sql`excluded.tenant_id`),
      })
      .prepare('oidc_payload_upsert'),
    findById: db
      .select(found)
      .from(oidcPayloads)
      .where(and(inModel, eq(oidcPayloads.id, at('id')), live))
      .limit(1)
      .prepare('oidc_payload_find'),
    findByUid: db
      .select(found)
      .from(oidcPayloads)
      .where(and(inModel, eq(oidcPayloads.uid, at('uid')), live))
      .limit(1)
      .prepare('oidc_payload_find_by_uid'),
    // Consumed once: the statement that marks it is the one that tells whether it already was.
    consume: db
      .update(oidcPayloads)
      .set({ consumedAt: sql`now()` })
      .where(
        and(
          inModel,
          eq(oidcPayloads.id, at('id')),
          eq(oidcPayloads.tenantId, at('tenantId')),
          isNull(oidcPayloads.consumedAt),
        ),
      )
      .returning({ id: oidcPayloads.id })
      .prepare('oidc_payload_consume'),
    grantOf: db
      .select({ grantId: oidcPayloads.grantId })
      .from(oidcPayloads)
      .where(and(inModel, eq(oidcPayloads.id, at('id')), eq(oidcPayloads.tenantId, at('tenantId'))))
      .prepare('oidc_payload_grant_of'),
    destroy: db
      .delete(oidcPayloads)
      .where(and(inModel, eq(oidcPayloads.id, at('id')), eq(oidcPayloads.tenantId, at('tenantId'))))
      .prepare('oidc_payload_destroy'),
  };
}
const preparedStatements = new WeakMap<Database, ReturnType<typeof prepareStatements>>();

/**
 * The OpenID provider's storage (its "adapter"): one table for every kind of artifact, each
 * row kept within its tenant so that an artifact of one realm is never found at another. The
 * provider decides what is stored and for how long; this only keeps it.
 */
export class PayloadStore implements Adapter {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(
    private readonly db: Database,
    private readonly tenantId: string,
    private readonly model: string,
    /** Ends the grant of a code or token presented twice at once, and refuses it (throws). */
    private readonly replayed: ReplayHandler = () => Promise.reject(new Error('replayed')),
  ) {
    let statements = preparedStatements.get(db);
    if (!statements) preparedStatements.set(db, (statements = prepareStatements(db)));
    this.statements = statements;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.statements.upsert.execute({
      model: this.model,
      id,
      tenantId: this.tenantId,
      payload,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.found(
      await this.statements.findById.execute({ model: this.model, id, tenantId: this.tenantId }),
    );
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.found(
      await this.statements.findByUid.execute({ model: this.model, uid, tenantId: this.tenantId }),
    );
  }

  // The device flow is not enabled: nothing is ever stored under a user code.
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  private found(rows: Array<{ payload: unknown; consumedAt: Date | null }>) {
    const [row] = rows;
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt
      ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
      : payload;
  }

  /**
   * The provider reads whether a code or refresh token was used, then marks it used: two
   * requests presenting it at once could both pass the read. The mark is the check here; the
   * one that finds it already made is a replay, which ends the grant (RFC 6749 §4.1.2,
   * OAuth 2.0 Security BCP §4.14.2) and is refused.
   */
  async consume(id: string): Promise<void> {
    const key = { model: this.model, id, tenantId: this.tenantId };
    if ((await this.statements.consume.execute(key)).length > 0) return;
    const [row] = await this.statements.grantOf.execute(key);
    await this.replayed(this.model, row?.grantId ?? undefined);
  }

  async destroy(id: string): Promise<void> {
    await this.statements.destroy.execute({ model: this.model, id, tenantId: this.tenantId });
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
