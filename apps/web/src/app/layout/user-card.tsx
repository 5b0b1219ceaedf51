import LogoutIcon from '@mui/icons-material/Logout';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useMe } from '../../features/auth/api/get-me';
import { useLogout } from '../../features/auth/api/logout';
import { paths } from '../../lib/paths';

/** The signed-in user's real name, role label, their account page and logout. */
export function UserCard({ superAdmin }: { superAdmin: boolean }) {
  const { t } = useTranslation();
  const me = useMe();
  const logout = useLogout();
  const name = me.data
    ? `${me.data.firstName} ${me.data.lastName}`.trim() || me.data.email
    : me.isError
      ? ''
      : t('layout.loadingUser');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, p: 2 }}>
      <Avatar aria-hidden>{name.charAt(0).toUpperCase() || '?'}</Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }} noWrap data-testid="user-name">
          {name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {superAdmin ? t('layout.superAdmin') : t('layout.admin')}
        </Typography>
      </Box>
      <IconButton
        component={RouterLink}
        to={paths.account}
        aria-label={t('layout.account')}
        title={t('layout.account')}
      >
        <ManageAccountsIcon />
      </IconButton>
      <IconButton
        aria-label={t('layout.logout')}
        onClick={() => logout.mutate()}
        disabled={logout.isPending}
      >
        <LogoutIcon />
      </IconButton>
    </Box>
  );
}
