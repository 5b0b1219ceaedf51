import { randomUUID } from 'node:crypto';
import { desc } from 'drizzle-orm';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type CryptoKey,
} from 'jose';
import type { Database } from '../db/database';
import { signingKeys } from '../db/schema/identity';

// ES256: as widely supported as RS256 and an order of magnitude cheaper to sign.
const ALG = 'ES256';

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/** Signing keys live in the database so every process signs and verifies with the same set. */
export class SigningKeys {
  private current!: LoadedKey;
  private jwks: JSONWebKeySet = { keys: [] };
  private verifier = createLocalJWKSet(this.jwks);
  private reloading: Promise<void> | undefined;

  private constructor(private readonly db: Database) {}

  static async open(db: Database): Promise<SigningKeys> {
    const keys = new SigningKeys(db);
    await keys.reload();
    if (keys.jwks.keys.length === 0) {
      await keys.create();
      await keys.reload();
    }
    return keys;
  }

  private async create(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
    await this.db.insert(signingKeys).values({ kid, alg: ALG, publicJwk, privateJwk });
  }

  private async reload(): Promise<void> {
    const rows = await this.db
      .select()
      .from(signingKeys)
      .orderBy(desc(signingKeys.createdAt), desc(signingKeys.kid));
    if (rows.length === 0) return;
    // Two processes starting at once may each create a key: all agree to sign with the newest.
    const newest = rows[0]!;
    this.current = {
      kid: newest.kid,
      privateKey: (await importJWK(newest.privateJwk as JWK, ALG)) as CryptoKey,
      publicJwk: newest.publicJwk as JWK,
    };
    this.jwks = { keys: rows.map((row) => row.publicJwk as JWK) };
    this.verifier = createLocalJWKSet(this.jwks);
  }

  publicKeySet(): JSONWebKeySet {
    return this.jwks;
  }

  sign(claims: JWTPayload, ttlSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: this.current.kid, typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .setJti(randomUUID())
      .sign(this.current.privateKey);
  }

  /** Verifies signature and expiry; an unknown key id triggers one reload (another process's key). */
  async verify(token: string): Promise<JWTPayload> {
    try {
      return (await jwtVerify(token, this.verifier, { algorithms: [ALG] })).payload;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      this.reloading ??= this.reload().finally(() => (this.reloading = undefined));
      await this.reloading;
      return (await jwtVerify(token, this.verifier, { algorithms: [ALG] })).payload;
    }
  }
}
