import type { TenantInfo } from '@tc/contract/identity';
import { storageKeys } from './storage-keys';

/** The identified tenant, cached locally as `tenantInfo`; its name is the realm. */
export function getStoredTenant(): TenantInfo | null {
  const raw = window.localStorage.getItem(storageKeys.tenantInfo);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as TenantInfo;
  } catch {
    return null;
  }
}

export function storeTenant(tenant: TenantInfo) {
  window.localStorage.setItem(storageKeys.tenantInfo, JSON.stringify(tenant));
}

export function getRealm(): string | null {
  return getStoredTenant()?.name ?? null;
}
