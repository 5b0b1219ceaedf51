import RefreshIcon from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useIdentifyTenant } from '../../lib/identify-tenant';
import { tenantUrl } from '../../lib/tenant-url';
import { describeFailure } from '../../lib/problem-text';

/** The signed-in user's tenant: loading, loaded or error. */
export function TenantCard({ tenantId }: { tenantId: string | null }) {
  const { t } = useTranslation();
  const tenant = useIdentifyTenant(tenantId);
  const domain = tenant.data?.domain;
  return (
    <Paper variant="outlined" sx={{ mx: 2, mb: 1, p: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {tenant.isPending ? (
            <Typography variant="body2">{t('tenantCard.loading')}</Typography>
          ) : tenant.isError ? (
            <Typography variant="body2" color="error" role="alert">
              {describeFailure(t, tenant.error)}
            </Typography>
          ) : (
            <>
              <Typography sx={{ fontWeight: 600 }} noWrap>
                {tenant.data.name || t('tenantCard.noTenant')}
              </Typography>
              {domain ? (
                <Link href={tenantUrl(domain)} variant="body2" target="_blank" rel="noreferrer">
                  {domain}
                </Link>
              ) : (
                <Typography variant="body2">{t('tenantCard.noDomain')}</Typography>
              )}
            </>
          )}
        </Box>
        <IconButton
          size="small"
          aria-label={t('tenantCard.refresh')}
          onClick={() => void tenant.refetch()}
          disabled={tenant.isFetching}
        >
          <RefreshIcon fontSize="small" />
        </IconButton>
      </Box>
    </Paper>
  );
}
