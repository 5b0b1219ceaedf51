/**
 * oidc-provider, loaded when the first realm's provider is built rather than when the server
 * starts: version 9 names Node.js 22 as its runtime and says so on standard error when it is
 * imported on Node.js 20, which it runs on. Loaded late, that line never interrupts start-up's
 * own output (a configuration error is one line), and a server that no application signs in
 * to never prints it.
 */
export const loadOidcProvider = () => import('oidc-provider');

export type OidcProviderLibrary = Awaited<ReturnType<typeof loadOidcProvider>>;
