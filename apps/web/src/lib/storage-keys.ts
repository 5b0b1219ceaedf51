/** Browser storage keys, in one place, so a token is written and read under one key, `access_token`. */
export const storageKeys = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  idToken: 'id_token',
  tenantId: 'tenantId',
  tenantInfo: 'tenantInfo',
  rememberedEmail: 'remembered_email',
  language: 'language',
} as const;
