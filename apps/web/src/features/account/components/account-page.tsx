import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ApplicationsSection } from './applications-section';
import { AuthenticatorSection } from './authenticator-section';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { ReverifyDialog } from './reverify-dialog';
import { SessionsSection } from './sessions-section';

/**
 * The signed-in user's own account, open to everyone signed in: profile, password, the
 * second factors (authenticator app, passkeys) and the sessions. Each section loads, fails
 * and retries on its own, so one slow answer does not hold the others back. A change of the
 * sign-in security that the server holds for a recent proof opens the re-verification dialog.
 */
export default function AccountPage() {
  // The authenticator's enrolment and recovery codes use the texts it shares with the sign-in:
  // loaded with the page, so opening them does not wait on a chunk.
  const { t } = useTranslation(['account', 'second-factor']);
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Typography component="h1" variant="h4">
        {t('title')}
      </Typography>
      <ProfileSection />
      <PasswordSection />
      <AuthenticatorSection />
      <PasskeysSection />
      <SessionsSection />
      <ApplicationsSection />
      <ReverifyDialog />
    </Stack>
  );
}
