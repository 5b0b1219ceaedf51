import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIdentifyTenant } from '../lib/identify-tenant';

/** Start-up tenant check (spec §1, §4): loading, then the app or "Error: Tenant not identified.". */
export function TenantGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { isPending, isError } = useIdentifyTenant();
  if (isPending) {
    return (
      <Box component="main" sx={{ p: 4, maxWidth: 480, mx: 'auto', mt: '20vh' }}>
        <LinearProgress aria-label={t('app.verifyingTenant')} />
        <Typography sx={{ mt: 2, textAlign: 'center' }}>{t('app.verifyingTenant')}</Typography>
      </Box>
    );
  }
  if (isError) {
    return (
      <Box component="main" sx={{ p: 4, textAlign: 'center', mt: '20vh' }}>
        <Typography role="alert" color="error">
          {t('app.tenantNotIdentified')}
        </Typography>
      </Box>
    );
  }
  return children;
}
