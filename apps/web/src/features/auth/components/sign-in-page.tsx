import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { FormField } from '../../../components/form-field';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { links, paths } from '../../../lib/paths';
import { OAuthRequestError } from '../../../lib/oidc';
import { useTenant } from '../../../lib/use-tenant';
import { useGoogleSignIn } from '../api/google-sign-in';
import { getRememberedEmail, TenantMissingError, useLogin, type LoginInput } from '../api/login';
import { AuthLayout } from './auth-layout';
import { GoogleButton } from './google-button';
import { PasswordField } from '../../../components/password-field';
import { describeFailure } from '../../../lib/problem-text';

export interface HostedSignIn {
  /** Sends the password step of an application's sign-in; the browser then leaves the page. */
  submit: (input: LoginInput) => Promise<void>;
  /** Sends Google's ID token instead of the password, with the same outcome. */
  google: (credential: string) => Promise<void>;
  loginHint?: string | null;
}

/**
 * Sign in: e-mail and password, or Google where the tenant has it; the landing page depends on
 * the role. The same screen is the identity provider's hosted sign-in for the tenant's own
 * applications (`hosted`): there the password, or Google's ID token, goes to the application's
 * sign-in request, which then sends the browser back to the application.
 */
export default function SignInPage({ hosted }: { hosted?: HostedSignIn }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tenant = useTenant();
  const consoleLogin = useLogin();
  const hostedLogin = useMutation({ mutationFn: (input: LoginInput) => hosted!.submit(input) });
  const login = hosted ? hostedLogin : consoleLogin;
  const consoleGoogle = useGoogleSignIn();
  const hostedGoogle = useMutation({
    mutationFn: (credential: string) => hosted!.google(credential),
  });
  const googleFailed = hosted ? hostedGoogle.isError : consoleGoogle.isError;
  const [email, setEmail] = useState(() => hosted?.loginHint ?? getRememberedEmail());
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => getRememberedEmail() !== '');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = { email: email.trim(), password, remember };
    if (hosted) hostedLogin.mutate(input);
    else {
      consoleLogin.mutate(input, {
        onSuccess: (session) => void navigate(links.landing(session.superAdmin)),
      });
    }
  };

  const loginError = (() => {
    const error = login.error;
    if (!error) return null;
    if (error instanceof TenantMissingError) return t('signIn.tenantMissing');
    const description =
      error instanceof OAuthRequestError ? error.description : describeFailure(t, error);
    return t('signIn.failed', { message: t('signIn.authFailed', { description }) });
  })();

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
      <GoogleButton
        text="signin_with"
        onCredential={(credential) => {
          if (hosted) hostedGoogle.mutate(credential);
          else {
            consoleGoogle.mutate(credential, {
              onSuccess: (session) => void navigate(links.landing(session.superAdmin)),
            });
          }
        }}
      />
      {googleFailed ? (
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
        <Button
          type="submit"
          variant="contained"
          fullWidth
          size="large"
          disabled={login.isPending}
          sx={{ mt: 2 }}
        >
          {login.isPending ? t('signIn.submitting') : t('signIn.submit')}
        </Button>
      </Box>
    </AuthLayout>
  );
}
