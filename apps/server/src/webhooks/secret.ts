import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../identity/second-factor/secret-box';

/**
 * A new signing secret in the Standard Webhooks format: `whsec_` and the base64 of 32 random
 * bytes (the format allows 24 to 64).
 */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

// Bound to the endpoint: a sealed secret copied onto another endpoint's row does not open.
const boundTo = (endpointId: string) => `webhook:${endpointId}`;

export const sealSecret = (box: SecretBox, secret: string, endpointId: string) =>
  box.seal(secret, boundTo(endpointId));

export const openSecret = (box: SecretBox, sealed: string, endpointId: string) =>
  box.open(sealed, boundTo(endpointId));
