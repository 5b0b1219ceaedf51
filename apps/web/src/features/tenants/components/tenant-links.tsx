import LoginIcon from '@mui/icons-material/Login';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import type { Tenant } from '@tc/contract/tenants';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths';
import { tenantUrl } from '../../../lib/tenant-url';

/**
 * The sign-in screen of a tenant's own console: its domain, with this console's scheme and
 * port (so http://acme.localhost:8080/ in development and tests).
 */
export const tenantSignInUrl = (domain: string) => new URL(paths.root, tenantUrl(domain)).href;

/**
 * The "Log in" button of a tenant (list column "Admin access", and each card). It
 * opens the tenant's console in a new tab; the tenant's sessions live on that origin.
 */
export function LoginButton({ tenant }: { tenant: Pick<Tenant, 'name' | 'domain'> }) {
  const { t } = useTranslation('tenants');
  return (
    <Button
      href={tenantSignInUrl(tenant.domain)}
      target="_blank"
      rel="noopener noreferrer"
      size="small"
      variant="outlined"
      startIcon={<LoginIcon />}
      // The visible words start the accessible name (WCAG 2.5.3); the rest tells rows apart.
      aria-label={t('loginTo', { name: tenant.name })}
    >
      {t('login')}
    </Button>
  );
}

/** The tenant's console, opened in a new tab (the tenant card's link). */
export function DomainLink({ domain }: { domain: string }) {
  return (
    <Link href={tenantUrl(domain)} target="_blank" rel="noopener noreferrer" variant="body2">
      {domain}
    </Link>
  );
}

/** The tenant's logo, or its initial; decorative, since its name is always shown beside it. */
export function TenantAvatar({
  tenant,
  size = 32,
}: {
  tenant: Pick<Tenant, 'name' | 'logoUrl'>;
  size?: number;
}) {
  return (
    <Avatar
      src={tenant.logoUrl ?? undefined}
      alt=""
      aria-hidden
      variant="rounded"
      sx={{ width: size, height: size, bgcolor: 'primary.main', fontSize: size / 2 }}
    >
      {tenant.name.charAt(0).toUpperCase()}
    </Avatar>
  );
}
