import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { links } from '../../../lib/paths';
import { describeFailure, translateCode } from '../../../lib/problem-text';
import type { Session } from '../../../lib/session';
import { useAuthPage } from '../auth-page-context';
import { useGoogleSignIn } from '../api/google-sign-in';
import { consoleSignInDriver } from '../api/login';
import { useSignup } from '../api/signup';
import { AuthLayout } from '../ui/auth-layout';
import { Alert, AuthLink, PrimaryButton } from '../ui/controls';
import { Checkbox, PasswordField, TextField } from '../ui/fields';
import { useTypedChecked, useTypedValue } from '../ui/use-typed-value';
import { GoogleButton } from './google-button';
import { failureBeyondFields, fieldProblems, pageFailure } from './page-error';
import { SignInStageScreen } from './sign-in-stage-screen';
import { checkSignUp } from './sign-up-checks';
import { useSignInSteps } from './use-sign-in-steps';
import { FormToken } from './form-token';

const FIELDS = ['fullName', 'email', 'password', 'repeat', 'terms'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

/** A refusal's field problems, and its older per-field texts, at the form's fields. */
function errorsAtFields(t: Parameters<typeof translateCode>[0], error: unknown): Errors {
  const found: Errors = {};
  const texts = (error as { problem?: { errors?: Record<string, string> } } | undefined)?.problem
    ?.errors;
  for (const [field, text] of Object.entries(texts ?? {})) found[field as Field] = text;
  for (const [field, problem] of Object.entries(fieldProblems(error))) {
    found[field as Field] = translateCode(t, problem);
  }
  return found;
}

/**
 * Sign up: the account is created, then activated through the e-mailed link. Or Google, which
 * signs up and in at once (where the tenant takes sign-ups) through the sign-in's steps, so an
 * existing account's second factor, or the one the tenant requires, is asked here too.
 * Without script the form posts to /signup and the server answers with this page again.
 */
export default function SignUpPage() {
  const { t, i18n } = useTranslation();
  const { state } = useAuthPage();
  const signup = useSignup();
  // One driver for the screen's life: it holds the Google sign-in in progress.
  const [driver] = useState(() =>
    consoleSignInDriver({ realm: state.tenant?.name ?? null, language: i18n.language }),
  );
  const onSignedIn = useCallback(
    (session: Session) => window.location.assign(links.landing(session.superAdmin)),
    [],
  );
  const { stage, advance, finish, restart } = useSignInSteps(driver, onSignedIn);
  const google = useGoogleSignIn(driver, advance);
  const values = state.values ?? {};
  const [fullName, setFullName] = useState(values.fullName ?? '');
  const [email, setEmail] = useState(values.email ?? '');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [terms, setTerms] = useState(values.terms === 'on');
  const [refused, setRefused] = useState(() => pageFailure(state.error));
  const [errors, setErrors] = useState<Errors>(() => errorsAtFields(t, refused));
  const fields = {
    fullName: useTypedValue(fullName, setFullName),
    email: useTypedValue(email, setEmail),
    password: useTypedValue(password, setPassword),
    repeat: useTypedValue(repeat, setRepeat),
    terms: useTypedChecked(terms, setTerms),
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    const checked = checkSignUp({ fullName, email, password });
    if ('refused' in checked) {
      for (const field of checked.refused) found[field] = t(`signUp.invalid.${field}`);
    }
    if (password !== repeat) found.repeat = t('password.mismatch');
    if (!terms) found.terms = t('signUp.termsRequired');
    setErrors(found);
    setRefused(undefined);
    if (Object.keys(found).length > 0 || !('request' in checked)) return;
    signup.run(checked.request, { onError: (error) => setErrors(errorsAtFields(t, error)) });
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

  if (signup.isSuccess || state.notice === 'signedUp') {
    return (
      <AuthLayout title={t('signUp.checkInboxTitle')}>
        <Alert severity="success">{t('signUp.checkInbox', { email: email.trim() })}</Alert>
        <AuthLink to={AUTH_PAGE_PATHS.signIn}>{t('auth.backToLogin')}</AuthLink>
      </AuthLayout>
    );
  }

  const failure = signup.isError ? signup.error : refused;
  return (
    <AuthLayout title={t('signUp.title')}>
      <p className="auth-text">
        {t('signUp.haveAccount')}{' '}
        <AuthLink to={AUTH_PAGE_PATHS.signIn}>{t('signUp.signInLink')}</AuthLink>
      </p>
      <GoogleButton text="signup_with" onCredential={(credential) => google.run(credential)} />
      {google.isError ? <Alert severity="error">{t('auth.googleFailed')}</Alert> : null}
      <form method="post" action={AUTH_PAGE_PATHS.signUp} noValidate onSubmit={onSubmit}>
        <FormToken />
        <TextField
          label={t('signUp.fullName')}
          name="fullName"
          autoComplete="name"
          value={fullName}
          onChange={setFullName}
          inputRef={fields.fullName}
          error={errors.fullName}
          required
        />
        <TextField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          inputRef={fields.email}
          error={errors.email}
          required
        />
        <PasswordField
          label={t('auth.password')}
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          inputRef={fields.password}
          error={errors.password}
          hint={t('signUp.passwordHint')}
          required
        />
        <PasswordField
          label={t('signUp.repeatPassword')}
          name="repeat"
          autoComplete="new-password"
          value={repeat}
          onChange={setRepeat}
          inputRef={fields.repeat}
          error={errors.repeat}
          required
        />
        <Checkbox
          label={t('signUp.terms')}
          name="terms"
          checked={terms}
          onChange={setTerms}
          inputRef={fields.terms}
          error={errors.terms}
        />
        {failure !== undefined && failureBeyondFields(failure, FIELDS) ? (
          <Alert severity="error">
            {t('signUp.failed', { message: describeFailure(t, failure) })}
          </Alert>
        ) : null}
        <PrimaryButton busy={signup.isPending} busyLabel={t('signUp.submitting')}>
          {t('signUp.submit')}
        </PrimaryButton>
      </form>
    </AuthLayout>
  );
}
