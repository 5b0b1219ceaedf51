import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config';

const KEY_FILE = 'mfa-encryption.key';
const VERSION = 'v1';

/**
 * Encrypts second-factor secrets at rest (AES-256-GCM, Node's crypto). The stored form is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; the associated data binds a secret to its user,
 * so a row copied onto another account does not decrypt.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /**
   * The key from MFA_ENCRYPTION_KEY; without it, one generated once into the data directory
   * (the embedded default), readable by this user only. Never logged.
   */
  static async open(config: Pick<Config, 'mfaEncryptionKey' | 'dataDir'>): Promise<SecretBox> {
    if (config.mfaEncryptionKey) return new SecretBox(config.mfaEncryptionKey);
    const path = join(config.dataDir, KEY_FILE);
    const existing = await readFile(path, 'utf8').catch(() => undefined);
    if (existing !== undefined) return new SecretBox(Buffer.from(existing.trim(), 'base64'));
    const key = randomBytes(32);
    await mkdir(config.dataDir, { recursive: true });
    // 'wx': two processes starting at once do not overwrite each other's key.
    await writeFile(path, key.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(
      async () => undefined,
    );
    return new SecretBox(Buffer.from((await readFile(path, 'utf8')).trim(), 'base64'));
  }

  /** For tests: a box with a given key. */
  static withKey(key: Buffer): SecretBox {
    return new SecretBox(key);
  }

  seal(plain: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url'));
    return [VERSION, ...parts].join('.');
  }

  /** Undefined for anything this key did not seal for `boundTo`. */
  open(stored: string, boundTo: string): string | undefined {
    const [version, iv, tag, sealed] = stored.split('.');
    if (version !== VERSION || !iv || !tag || sealed === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([
        decipher.update(Buffer.from(sealed, 'base64url')),
        decipher.final(),
      ]);
      return plain.toString('utf8');
    } catch {
      return undefined;
    }
  }
}
