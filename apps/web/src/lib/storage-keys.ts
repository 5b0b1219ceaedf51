/**
 * Browser storage keys, in one place, so a value is written and read under one key. The access
 * and ID tokens are no longer stored; their keys remain to remove what earlier versions left.
 */
export const storageKeys = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  idToken: 'id_token',
  tenantId: 'tenantId',
  tenantInfo: 'tenantInfo',
  rememberedEmail: 'remembered_email',
  language: 'language',
} as const;
