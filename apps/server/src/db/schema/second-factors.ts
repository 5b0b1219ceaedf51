import {
  bigint,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { tenantId, users } from './identity';

const userId = () =>
  uuid()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * A user's authenticator-app secret, encrypted with MFA_ENCRYPTION_KEY; unconfirmed until the
 * first code. `lastStep` is the last time step accepted, so no code is accepted twice.
 */
export const totpSecrets = pgTable('totp_secrets', {
  userId: userId().primaryKey(),
  tenantId: tenantId(),
  secretEncrypted: text().notNull(),
  confirmedAt: timestamp({ withTimezone: true }),
  lastStep: bigint({ mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes; only their SHA-256 is kept (each carries 80 random bits). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: userId(),
    tenantId: tenantId(),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/** WebAuthn credentials; a credential id is unique within its tenant (the relying party). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    tenantId: tenantId(),
    userId: userId(),
    credentialId: text().notNull(),
    /** The COSE public key, base64url. */
    publicKey: text().notNull(),
    counter: bigint({ mode: 'number' }).notNull().default(0),
    transports: jsonb().$type<string[]>().notNull().default([]),
    name: text().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('passkeys_tenant_credential_key').on(t.tenantId, t.credentialId),
    index('passkeys_user_idx').on(t.userId),
  ],
);

/**
 * Short-lived, single-use state between two requests of a sign-in or an enrolment: a
 * WebAuthn challenge, or a password sign-in waiting for its second factor. `key` names what
 * it belongs to (the hosted sign-in's interaction, or a user's enrolment).
 */
export const signInSteps = pgTable('sign_in_steps', {
  key: text().primaryKey(),
  tenantId: tenantId(),
  userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
  kind: text().notNull(),
  data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});
