import {
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import { accountRoutes } from '@tc/contract/routes/account';
import { callRoute } from '../../../lib/api';
import { withRecentProof } from './reverify';
import { useSecondFactorMutation } from './second-factors';

/**
 * Registers a passkey: the server's options (a fresh challenge, the tenant as relying party),
 * the browser's own prompt (WebAuthn, through @simplewebauthn/browser), then the attestation
 * back to the server, which verifies it.
 */
export async function registerPasskey(name: string) {
  const { options } = await callRoute(accountRoutes.passkeyOptions);
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return callRoute(accountRoutes.passkeyRegister, {
    body: { name, response: response as unknown as Record<string, unknown> },
  });
}

/** Asked for a recent proof, the whole registration runs again with the name kept. */
export const useRegisterPasskey = () =>
  useSecondFactorMutation((name: string) => withRecentProof(() => registerPasskey(name)));

export const useRenamePasskey = () =>
  useSecondFactorMutation(({ id, name }: { id: string; name: string }) =>
    callRoute(accountRoutes.passkeyRename, { params: { id }, body: { name } }),
  );

export const useRemovePasskey = () =>
  useSecondFactorMutation((id: string) =>
    withRecentProof(() => callRoute(accountRoutes.passkeyRemove, { params: { id } })),
  );
