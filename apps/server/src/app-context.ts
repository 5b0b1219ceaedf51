import type { Config } from './config';
import type { Database, DatabaseHandle } from './db/database';
import type { HitCounter } from './http/hit-counter';
import type { SecretBox } from './identity/second-factor/secret-box';
import type { SigningKeys } from './identity/signing-keys';
import type { TokenService } from './identity/token-service';
import type { MailService } from './mail/worker';

/** What every module's routes receive: built once in app.ts, in its explicit order. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  keys: SigningKeys;
  tokens: TokenService;
  /** The outbox worker; services queue mail with enqueueMail in their own transaction. */
  mail: MailService;
  /** Rate-limit counters shared by every server process (database, or Redis). */
  limits: HitCounter;
  /** Encrypts second-factor secrets at rest (MFA_ENCRYPTION_KEY). */
  mfaSecrets: SecretBox;
}
