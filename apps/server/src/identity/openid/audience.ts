import type { Client } from 'oidc-provider';

/**
 * Who an access token is for (RFC 8707 resource indicators, RFC 9068 `aud`). The console API
 * takes the tokens of the console itself and of the applications an administrator allowed to
 * call it (`console_api_access`): those are for the API. Every other application's tokens are
 * for that application alone, so that a relying party cannot use its user's token as that
 * user at the console API (docs/identity-provider.md, "Which tokens the console API accepts").
 */

/** The audience of the tokens the console API accepts. */
export const apiAudience = (publicUrl: string) => `${publicUrl}/api`;

/**
 * The resource indicator of an application itself; its tokens' `aud` is its client ID. A URN
 * (RFC 8141) since a resource indicator is an absolute URI and the application has no address
 * of ours.
 */
export const applicationResource = (clientId: string) =>
  `urn:tenant-console:application:${encodeURIComponent(clientId)}`;

/** Whether the application's tokens are for the console API (client-metadata.ts). */
export const callsConsoleApi = (client: Client) => client['console_api_access'] === true;

/** The one resource an application's access tokens are issued for. */
export function resourceOf(publicUrl: string, client: Client): string {
  if (callsConsoleApi(client)) return apiAudience(publicUrl);
  return applicationResource(client.clientId);
}

/** The audience (`aud`) a resource indicator stands for, or undefined for no resource of ours. */
export function audienceOf(
  publicUrl: string,
  client: Client,
  resource: string,
): string | undefined {
  if (resource !== resourceOf(publicUrl, client)) return undefined;
  return resource === apiAudience(publicUrl) ? resource : client.clientId;
}
