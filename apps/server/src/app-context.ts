import type { Config } from './config';
import type { Database, DatabaseHandle } from './db/database';
import type { SigningKeys } from './identity/signing-keys';
import type { TokenService } from './identity/token-service';

/** What every module's routes receive: built once in app.ts, in its explicit order. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  keys: SigningKeys;
  tokens: TokenService;
}
