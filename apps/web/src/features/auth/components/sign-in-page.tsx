import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { BusyButton } from '../../../components/busy-button';
import { FormField } from '../../../components/form-field';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { links, paths } from '../../../lib/paths';
import { OAuthRequestError } from '../../../lib/oidc';
import type { Session } from '../../../lib/session';
import { useTenant } from '../../../lib/use-tenant';
import { useGoogleSignIn } from '../api/google-sign-in';
import type { HostedSignInDriver } from '../api/hosted-sign-in';
import { consoleSignInDriver, getRememberedEmail, TenantMissingError } from '../api/login';
import type { LoginInput, SignInDriver } from '../api/sign-in-driver';
import { AuthLayout } from './auth-layout';
import { GoogleButton } from './google-button';
import { PasskeyButton, passkeysSupported } from './passkey-button';
import { PasswordField } from '../../../components/password-field';
import { describeFailure } from '../../../lib/problem-text';
import { SignInStageScreen } from './sign-in-stage-screen';
import { useSignInSteps } from './use-sign-in-steps';

export interface HostedSignIn {
  /** The steps of the application's sign-in request; `done` sends the browser back to it. */
  driver: HostedSignInDriver;
  loginHint?: string | null;
  /** Whether passkeys work on this address (the request's details say). */
  passkeys: boolean;
}

/**
 * Sign in: e-mail and password, or a passkey, or Google where the tenant has it; then the
 * second factor, or the enrolment the tenant requires, when the server asks (after Google as
 * after the password). The landing page depends on the role. The same screen is the
 * identity provider's hosted sign-in for the tenant's own applications (`hosted`): there each
 * step goes to the application's sign-in request, which at the end sends the browser back to
 * the application.
 */
export default function SignInPage({ hosted }: { hosted?: HostedSignIn }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // One driver for the screen's life: it holds the console's sign-in in progress.
  const [driver] = useState<SignInDriver>(() => hosted?.driver ?? consoleSignInDriver());
  const onSignedIn = useCallback(
    (session: Session) => void navigate(links.landing(session.superAdmin)),
    [navigate],
  );
  const { stage, advance, finish, restart } = useSignInSteps(driver, onSignedIn);
  const tenant = useTenant();
  const login = useMutation({
    mutationFn: async (input: LoginInput) => advance(await driver.password(input)),
  });
  const google = useGoogleSignIn(driver, advance);
  const [email, setEmail] = useState(() => hosted?.loginHint ?? getRememberedEmail());
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => getRememberedEmail() !== '');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ email: email.trim(), password, remember });
  };
  const backToPassword = () => {
    setPassword('');
    login.reset();
    restart();
  };

  const loginError = (() => {
    const error = login.error;
    if (!error) return null;
    if (error instanceof TenantMissingError) return t('signIn.tenantMissing');
    const description =
      error instanceof OAuthRequestError ? error.description : describeFailure(t, error);
    return t('signIn.failed', { message: t('signIn.authFailed', { description }) });
  })();

  if (stage.step !== 'password') {
    return (
      <SignInStageScreen
        stage={stage}
        driver={driver}
        advance={advance}
        finish={finish}
        onBack={backToPassword}
      />
    );
  }

  return (
    <AuthLayout title={t('signIn.title')}>
      {tenant?.signupEnabled ? (
        <Typography sx={{ mb: 2 }}>
          {t('signIn.noAccount')}{' '}
          <Link component={RouterLink} to={paths.signup}>
            {t('signIn.signUpLink')}
          </Link>
        </Typography>
      ) : null}
      <GoogleButton text="signin_with" onCredential={(credential) => google.mutate(credential)} />
      {google.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('auth.googleFailed')}
        </Alert>
      ) : null}
      <Box component="form" noValidate onSubmit={onSubmit}>
        <FormField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
        <PasswordField
          label={t('auth.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={remember}
                onChange={(event) => setRemember(event.target.checked)}
              />
            }
            label={t('signIn.rememberMe')}
          />
          <Link component={RouterLink} to={links.forgotPassword(email.trim() || undefined)}>
            {t('signIn.forgotPassword')}
          </Link>
        </Box>
        {loginError ? (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {loginError}
          </Alert>
        ) : null}
        <BusyButton busy={login.isPending} busyLabel={t('signIn.submitting')}>
          {t('signIn.submit')}
        </BusyButton>
      </Box>
      {hosted?.passkeys !== false && passkeysSupported() ? (
        <>
          <Divider sx={{ my: 2 }} />
          <PasskeyButton
            label={t('signInSteps.passkey')}
            signIn={async () => advance(await driver.passkey({ remember }))}
          />
        </>
      ) : null}
    </AuthLayout>
  );
}
