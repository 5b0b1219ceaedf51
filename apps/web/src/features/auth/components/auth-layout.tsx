import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageMenu } from '../../../components/language-menu';
import { useTenant } from '../../../lib/use-tenant';

/** The frame of every sign-in screen: tenant logo and name, one h1, the form, a footer. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const tenant = useTenant();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box component="header" sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
        <LanguageMenu />
      </Box>
      <Box
        component="main"
        sx={{ flex: 1, display: 'flex', justifyContent: 'center', alignItems: 'flex-start', px: 2 }}
      >
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth: 440 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3 }}>
            {tenant?.logoUrl ? (
              <Box
                component="img"
                src={tenant.logoUrl}
                alt={t('auth.tenantLogo', { name: tenant.name })}
                sx={{ height: 40, maxWidth: 120, objectFit: 'contain' }}
              />
            ) : null}
            <Typography component="p" variant="h6" data-testid="tenant-name">
              {tenant?.name}
            </Typography>
          </Box>
          <Typography component="h1" variant="h4" sx={{ mb: 2 }}>
            {title}
          </Typography>
          {children}
        </Paper>
      </Box>
      <Box component="footer" sx={{ textAlign: 'center', py: 2 }}>
        <Typography variant="body2" color="text.secondary">
          {t('auth.copyright', { year: new Date().getFullYear() })}
        </Typography>
      </Box>
    </Box>
  );
}
