import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { JWK } from 'jose';
import type { ExternalSigningKey } from 'oidc-provider';
import type { OidcProviderLibrary } from './library';

const signOnThreadPool = promisify(sign);

const isSigningAlgorithm = (alg: unknown): alg is 'ES256' | 'RS256' =>
  alg === 'ES256' || alg === 'RS256';

/**
 * The provider's signing keys, as its external-signing keys: the provider still writes every
 * JWS, and only the signature over those bytes is made here, by Node's crypto. The provider's
 * own path (jose, through WebCrypto) cost about eight times the CPU for an ECDSA signature,
 * on the event loop — a large share of a client-credentials grant or a refresh.
 *
 * An ECDSA signature is made at once: it takes less time than handing it to the thread pool.
 * An RSA one takes about a millisecond, so it goes to the pool (which the password hashes
 * share) rather than holding up every other request.
 */
export function providerSigningKeys(library: OidcProviderLibrary, privateJwks: JWK[]) {
  class NodeSigningKey extends library.ExternalSigningKey {
    readonly #kid: string | undefined;
    readonly #alg: 'ES256' | 'RS256';
    readonly #privateKey: KeyObject;
    readonly #publicKey: KeyObject;

    constructor(jwk: JWK) {
      super();
      if (!isSigningAlgorithm(jwk.alg)) throw new Error(`no signing key of algorithm ${jwk.alg}`);
      this.#kid = jwk.kid;
      this.#alg = jwk.alg;
      this.#privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
      this.#publicKey = createPublicKey(this.#privateKey);
    }

    override get kid() {
      return this.#kid;
    }

    override get alg() {
      return this.#alg;
    }

    // The provider verifies its own tokens (an ID token hint) with this one.
    override keyObject(): KeyObject {
      return this.#publicKey;
    }

    override sign(data: Uint8Array): Uint8Array | Promise<Uint8Array> {
      return this.alg === 'ES256'
        ? sign('sha256', data, { key: this.#privateKey, dsaEncoding: 'ieee-p1363' })
        : signOnThreadPool('sha256', data, this.#privateKey);
    }
  }
  return privateJwks.map((jwk): ExternalSigningKey => new NodeSigningKey(jwk));
}
