/** Browser storage keys, in one place (DESIGN.md §6: one token key, `access_token`). */
export const storageKeys = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  tenantId: 'tenantId',
  tenantInfo: 'tenantInfo',
  rememberedEmail: 'remembered_email',
  language: 'language',
} as const;
