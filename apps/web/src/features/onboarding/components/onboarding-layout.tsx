import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageMenu } from '../../../components/language-menu';
import { useTenant } from '../../../lib/use-tenant';

/**
 * The frame of every onboarding page: the organisation being set up
 * in the header, then one card. The wizard stands outside the layout shell: nothing else
 * competes for the new administrator's attention.
 */
export function OnboardingLayout(props: { children: ReactNode; headerActions?: ReactNode }) {
  const { t } = useTranslation('onboarding');
  const tenant = useTenant();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box
        component="header"
        sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: { xs: 2, sm: 4 }, py: 1.5 }}
      >
        {tenant?.logoUrl ? (
          <Box
            component="img"
            src={tenant.logoUrl}
            alt={t('tenantLogo', { name: tenant.name })}
            sx={{ height: 36, maxWidth: 120, objectFit: 'contain' }}
          />
        ) : null}
        <Typography component="p" variant="h6" sx={{ flex: 1 }} noWrap>
          {tenant?.name}
        </Typography>
        <LanguageMenu />
        {props.headerActions}
      </Box>
      <Box
        component="main"
        sx={{ flex: 1, display: 'flex', justifyContent: 'center', px: 2, pb: 4 }}
      >
        <Paper
          variant="outlined"
          sx={{ p: { xs: 3, sm: 5 }, width: '100%', maxWidth: 720, alignSelf: 'flex-start' }}
        >
          {props.children}
        </Paper>
      </Box>
    </Box>
  );
}
