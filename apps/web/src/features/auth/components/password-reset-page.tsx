import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../lib/paths';
import { AuthLayout } from './auth-layout';

/** Password reset success. */
export default function PasswordResetPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('passwordReset.title')}>
      <Typography sx={{ mb: 3 }}>{t('passwordReset.text')}</Typography>
      <Button component={RouterLink} to={paths.home} variant="contained" fullWidth size="large">
        {t('passwordReset.continue')}
      </Button>
      <Box sx={{ mt: 2 }}>
        <Link component={RouterLink} to={paths.root}>
          {t('auth.backToLogin')}
        </Link>
      </Box>
    </AuthLayout>
  );
}
