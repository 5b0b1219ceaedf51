import type { Tenant, TenantCreate } from '@tc/contract/tenants';
import { createEntity, updateEntity, useInvalidateEntity } from '../../../lib/entity-api';
import { saveLogo, type LogoChange } from '../../../lib/logo-upload';

/**
 * The tenant was saved but its logo was not: the caller keeps the dialog open and, on the next
 * try, updates this tenant instead of creating it a second time.
 */
export class LogoNotSaved extends Error {
  constructor(
    readonly tenant: Tenant,
    readonly reason: unknown,
  ) {
    super('The tenant was saved, its logo was not.');
  }
}

export interface SaveTenantInput {
  /** The contract's create or update payload, as the form validated it. */
  values: TenantCreate;
  /** The tenant to update; none creates one (create, then the logo upload, which needs the id). */
  id?: string;
  logo: LogoChange;
}

/**
 * Creates or updates the tenant, then uploads or removes its logo: the upload needs the
 * tenant's id, and its route takes the raw image, not JSON (tenants/routes.ts).
 */
export async function saveTenant({ values, id, logo }: SaveTenantInput): Promise<Tenant> {
  let tenant: Tenant;
  if (id) {
    // The first administrator is invited on create only; update does not take adminEmail.
    tenant = await updateEntity<Tenant>('tenants', { ...values, adminEmail: undefined, id });
  } else {
    tenant = await createEntity<Tenant>('tenants', values);
  }
  try {
    return await saveLogo('tenants', tenant, logo);
  } catch (error) {
    throw new LogoNotSaved(tenant, error);
  }
}

/** saveTenant that refreshes the tenant lists whatever part of it got through. */
export function useSaveTenant() {
  const invalidate = useInvalidateEntity();
  return async (input: SaveTenantInput) => {
    try {
      return await saveTenant(input);
    } finally {
      void invalidate('tenants');
    }
  };
}
