import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { LanguageMenu } from '../../components/language-menu';
import { useSession } from '../../lib/use-session';
import { paths } from '../../lib/paths';
import { canOpen } from '../route-access';
import { ColorModeSwitch } from './color-mode-switch';
import { NavMenu } from './nav-menu';
import { TenantCard } from './tenant-card';
import { UserCard } from './user-card';

/** Sidebar content: logo, tenant card, navigation, then the bottom block. */
export function Sidebar() {
  const { t } = useTranslation();
  const session = useSession();
  const superAdmin = session?.superAdmin ?? false;
  const { pathname } = useLocation();
  // The tenant's settings; super administrators, who have no tenant, are not offered them.
  const settings = canOpen(session, paths.settings);
  const onSettings = pathname === paths.settings;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box sx={{ p: 2 }}>
        <Typography component="p" variant="h6" sx={{ fontWeight: 700 }}>
          {t('app.name')}
        </Typography>
      </Box>
      {superAdmin ? null : <TenantCard tenantId={session?.tenantId ?? null} />}
      <NavMenu superAdmin={superAdmin} permissions={session?.permissions ?? []} />
      <Box sx={{ mt: 'auto' }}>
        <Divider />
        <Box
          sx={{
            px: 2,
            pt: 1,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
          }}
        >
          <ColorModeSwitch />
          <LanguageMenu />
        </Box>
        {/* Each link sits in an <li>: a <ul> may only hold list items (axe "list"). */}
        <List dense>
          <ListItem disablePadding>
            <ListItemButton component={RouterLink} to={paths.root}>
              <ListItemText primary={t('layout.support')} />
            </ListItemButton>
          </ListItem>
          {settings ? (
            <ListItem disablePadding>
              <ListItemButton
                component={RouterLink}
                to={paths.settings}
                selected={onSettings}
                aria-current={onSettings ? 'page' : undefined}
              >
                <ListItemText primary={t('layout.settings')} />
              </ListItemButton>
            </ListItem>
          ) : null}
        </List>
        <UserCard superAdmin={superAdmin} />
      </Box>
    </Box>
  );
}
