import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIdentifyTenant } from '../lib/identify-tenant';

/** Start-up tenant check: loading, then the app or "Error: Tenant not identified.". */
export function TenantGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { isPending, isError } = useIdentifyTenant();
  if (isPending) {
    return (
      // The markup and classes of index.html's start screen, so the switch to React shows
      // nothing new: no layout shift and no second (main-thread) progress animation.
      <main className="boot">
        <span className="boot-bar" role="progressbar" aria-label={t('app.verifyingTenant')} />
        <p className="boot-text">{t('app.verifyingTenant')}</p>
      </main>
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
