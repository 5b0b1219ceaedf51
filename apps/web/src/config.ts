/**
 * Build-time configuration, read once here (STYLE.md "Our synthesis" 4).
 * VITE_GOOGLE_CLIENT_ID: the OAuth client id for Google Identity Services; the button
 * shows only when it is set and the tenant's identify answer says googleEnabled.
 */
export const config = {
  googleClientId: (import.meta.env.VITE_GOOGLE_CLIENT_ID as string | undefined) ?? '',
};
