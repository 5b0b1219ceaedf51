import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { useVerifyEmail } from '../api/verify-email';
import { AuthLayout } from './auth-layout';
import { describeFailure } from '../../../lib/problem-text';

/** Opens the e-mailed /verifyemail?token=… link and activates the account. */
export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const verify = useVerifyEmail(token);

  let content;
  if (token === '') {
    content = <Alert severity="error">{t('verifyEmail.noToken')}</Alert>;
  } else if (verify.isPending) {
    content = <LinearProgress aria-label={t('verifyEmail.verifying')} />;
  } else if (verify.isError) {
    content = (
      <Alert severity="error" role="alert">
        {t('verifyEmail.failed', { message: describeFailure(t, verify.error) })}
      </Alert>
    );
  } else {
    content = (
      <Alert severity="success" role="status">
        {t('verifyEmail.success', { email: verify.data.data.email })}
      </Alert>
    );
  }

  return (
    <AuthLayout title={t('verifyEmail.title')}>
      {content}
      <Box sx={{ mt: 2 }}>
        <Link component={RouterLink} to={paths.root}>
          {t('verifyEmail.toSignIn')}
        </Link>
      </Box>
    </AuthLayout>
  );
}
