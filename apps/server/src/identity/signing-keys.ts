import { hkdfSync, randomUUID } from 'node:crypto';
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

// ES256 signs our access tokens: as widely supported as RS256 and an order of magnitude
// cheaper to sign. RS256 is kept beside it for ID tokens, the algorithm most relying-party
// libraries expect when a client names none.
const ALG = 'ES256';
const ALGORITHMS = ['ES256', 'RS256'] as const;
export type SigningAlgorithm = (typeof ALGORITHMS)[number];

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/** Signing keys live in the database so every process signs and verifies with the same set. */
export class SigningKeys {
  private current!: LoadedKey;
  private newestPrivate: JWK[] = [];
  private jwks: JSONWebKeySet = { keys: [] };
  private verifier = createLocalJWKSet(this.jwks);
  private reloading: Promise<void> | undefined;

  private constructor(private readonly db: Database) {}

  static async open(db: Database): Promise<SigningKeys> {
    const keys = new SigningKeys(db);
    await keys.reload();
    const missing = ALGORITHMS.filter((alg) => !keys.jwks.keys.some((key) => key.alg === alg));
    if (missing.length > 0) {
      for (const alg of missing) await keys.create(alg);
      await keys.reload();
    }
    return keys;
  }

  private async create(alg: SigningAlgorithm): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
    await this.db.insert(signingKeys).values({ kid, alg, publicJwk, privateJwk });
  }

  private async reload(): Promise<void> {
    const rows = await this.db
      .select()
      .from(signingKeys)
      .orderBy(desc(signingKeys.createdAt), desc(signingKeys.kid));
    const newest = rows.find((row) => row.alg === ALG);
    if (!newest) return;
    // Two processes starting at once may each create a key: all agree to sign with the newest.
    this.current = {
      kid: newest.kid,
      privateKey: (await importJWK(newest.privateJwk as JWK, ALG)) as CryptoKey,
      publicJwk: newest.publicJwk as JWK,
    };
    this.newestPrivate = ALGORITHMS.flatMap((alg) => {
      const row = rows.find((candidate) => candidate.alg === alg);
      return row ? [row.privateJwk as JWK] : [];
    });
    this.jwks = { keys: rows.map((row) => row.publicJwk as JWK) };
    this.verifier = createLocalJWKSet(this.jwks);
  }

  publicKeySet(): JSONWebKeySet {
    return this.jwks;
  }

  /** The newest private key of each algorithm: what the OpenID provider signs with. */
  privateKeySet(): { keys: JWK[] } {
    return { keys: this.newestPrivate };
  }

  /** Stable secret bytes derived from the newest private key, shared by every process. */
  derivedSecret(purpose: string): Buffer {
    const material = JSON.stringify(this.newestPrivate[0] ?? {});
    return Buffer.from(hkdfSync('sha256', material, 'tenant-console', purpose, 32));
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
