import type { TenantInfo } from '@tc/contract/identity';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { identifyTenantQuery } from './identify-tenant';

/**
 * A tenant other than this host's, for the screens below it: the hosted sign-in page of an
 * application shows the tenant of the realm it signs in to.
 */
export const TenantOverride = createContext<TenantInfo | undefined>(undefined);

/** The tenant of this host; only read below the tenant gate, where it is always loaded. */
export function useTenant(): TenantInfo | undefined {
  const override = useContext(TenantOverride);
  const host = useQuery(identifyTenantQuery()).data;
  return override ?? host;
}
