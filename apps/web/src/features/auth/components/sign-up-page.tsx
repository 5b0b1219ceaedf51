import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { BusyButton } from '../../../components/busy-button';
import { FormField } from '../../../components/form-field';
import { signupRequestSchema } from '@tc/contract/account';
import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { links, paths } from '../../../lib/paths';
import { ApiError } from '../../../lib/api-client';
import type { Session } from '../../../lib/session';
import { useGoogleSignIn } from '../api/google-sign-in';
import { consoleSignInDriver } from '../api/login';
import { useSignup } from '../api/signup';
import { AuthLayout } from './auth-layout';
import { GoogleButton } from './google-button';
import { PasswordField } from '../../../components/password-field';
import { describeFailure } from '../../../lib/problem-text';
import { SignInStageScreen } from './sign-in-stage-screen';
import { useSignInSteps } from './use-sign-in-steps';

type Field = 'fullName' | 'email' | 'password' | 'repeat' | 'terms';

/**
 * Sign up: the account is created, then activated through the e-mailed link. Or Google, which
 * signs up and in at once (where the tenant takes sign-ups) through the sign-in's steps, so an
 * existing account's second factor, or the one the tenant requires, is asked here too.
 */
export default function SignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signup = useSignup();
  // One driver for the screen's life: it holds the Google sign-in in progress.
  const [driver] = useState(consoleSignInDriver);
  const onSignedIn = useCallback(
    (session: Session) => void navigate(links.landing(session.superAdmin)),
    [navigate],
  );
  const { stage, advance, finish, restart } = useSignInSteps(driver, onSignedIn);
  const google = useGoogleSignIn(driver, advance);
  const [form, setForm] = useState({ fullName: '', email: '', password: '', repeat: '' });
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const set = (field: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    const parsed = signupRequestSchema.safeParse(form);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= t(`signUp.invalid.${field}`);
      }
    }
    if (form.password !== form.repeat) found.repeat = t('password.mismatch');
    if (!terms) found.terms = t('signUp.termsRequired');
    setErrors(found);
    if (Object.keys(found).length > 0 || !parsed.success) return;
    signup.mutate(parsed.data, {
      onError: (error) => {
        if (error instanceof ApiError && error.problem?.errors) setErrors(error.problem.errors);
      },
    });
  };

  if (stage.step !== 'password') {
    return (
      <SignInStageScreen
        stage={stage}
        driver={driver}
        advance={advance}
        finish={finish}
        onBack={restart}
      />
    );
  }

  if (signup.isSuccess) {
    return (
      <AuthLayout title={t('signUp.checkInboxTitle')}>
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('signUp.checkInbox', { email: form.email.trim() })}
        </Alert>
        <Link component={RouterLink} to={paths.root}>
          {t('auth.backToLogin')}
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('signUp.title')}>
      <Typography sx={{ mb: 2 }}>
        {t('signUp.haveAccount')}{' '}
        <Link component={RouterLink} to={paths.root}>
          {t('signUp.signInLink')}
        </Link>
      </Typography>
      <GoogleButton text="signup_with" onCredential={(credential) => google.mutate(credential)} />
      {google.isError ? <Alert severity="error">{t('auth.googleFailed')}</Alert> : null}
      <Box component="form" noValidate onSubmit={onSubmit}>
        <FormField
          label={t('signUp.fullName')}
          name="fullName"
          autoComplete="name"
          value={form.fullName}
          onChange={set('fullName')}
          error={Boolean(errors.fullName)}
          helperText={errors.fullName}
          required
        />
        <FormField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={form.email}
          onChange={set('email')}
          error={Boolean(errors.email)}
          helperText={errors.email}
          required
        />
        <PasswordField
          label={t('auth.password')}
          name="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          error={Boolean(errors.password)}
          helperText={errors.password ?? t('signUp.passwordHint')}
          required
        />
        <PasswordField
          label={t('signUp.repeatPassword')}
          name="repeat"
          autoComplete="new-password"
          value={form.repeat}
          onChange={set('repeat')}
          error={Boolean(errors.repeat)}
          helperText={errors.repeat}
          required
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={terms}
              onChange={(event) => setTerms(event.target.checked)}
              slotProps={{
                input: { 'aria-describedby': errors.terms ? 'terms-error' : undefined },
              }}
            />
          }
          label={t('signUp.terms')}
        />
        {errors.terms ? (
          <FormHelperText id="terms-error" error>
            {errors.terms}
          </FormHelperText>
        ) : null}
        {signup.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {t('signUp.failed', { message: describeFailure(t, signup.error) })}
          </Alert>
        ) : null}
        <BusyButton busy={signup.isPending} busyLabel={t('signUp.submitting')}>
          {t('signUp.submit')}
        </BusyButton>
      </Box>
    </AuthLayout>
  );
}
