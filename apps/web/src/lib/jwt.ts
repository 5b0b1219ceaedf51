import type { AccessTokenClaims } from '@tc/contract/identity';

/** Reads the claims of a JWT without verifying it: the server verifies, the console only displays. */
export function decodeClaims(token: string): Partial<AccessTokenClaims> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Partial<AccessTokenClaims>;
  } catch {
    return null;
  }
}
