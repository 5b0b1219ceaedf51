import { hostedSignInPath } from '@tc/contract/links';
import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { links } from '../../../lib/paths';
import type { Session } from '../../../lib/session';
import { useAuthPage } from '../auth-page-context';
import { useGoogleSignIn } from '../api/google-sign-in';
import type { HostedSignInDriver } from '../api/hosted-sign-in';
import { consoleSignInDriver, getRememberedEmail } from '../api/login';
import type { LoginInput, SignInDriver } from '../api/sign-in-driver';
import { useAction } from '../api/use-action';
import { AuthLayout } from '../ui/auth-layout';
import { Alert, AuthLink, PrimaryButton } from '../ui/controls';
import { Checkbox, PasswordField, TextField } from '../ui/fields';
import { useTypedChecked, useTypedValue } from '../ui/use-typed-value';
import { GoogleButton } from './google-button';
import { PasskeyButton, usePasskeysSupported } from './passkey-button';
import { pageFailure } from './page-error';
import { signInFailureText } from './sign-in-failure';
import { SignInStageScreen } from './sign-in-stage-screen';
import { useSignInSteps } from './use-sign-in-steps';
import { FormToken } from './form-token';

export interface HostedSignIn {
  /** The steps of the application's sign-in request; `done` sends the browser back to it. */
  driver: HostedSignInDriver;
  realm: string;
  uid: string;
  loginHint?: string | null;
  /** Whether passkeys work on this address (the request's details say). */
  passkeys: boolean;
}

/** After a console sign-in: the console, loaded anew, restores the session from storage. */
const toConsole = (session: Session) => window.location.assign(links.landing(session.superAdmin));

/**
 * Sign in: e-mail and password, or a passkey, or Google where the tenant has it; then the
 * second factor, or the enrolment the tenant requires, when the server asks (after Google as
 * after the password). The same screen is the identity provider's hosted sign-in for the
 * tenant's own applications (`hosted`): there each step goes to the application's sign-in
 * request, which at the end sends the browser back to the application. Without script the
 * form posts to the page's address (`/login`, or the request's) and the server answers with
 * the next page.
 */
export default function SignInPage({ hosted }: { hosted?: HostedSignIn }) {
  const { t, i18n } = useTranslation();
  const { state } = useAuthPage();
  const pendingStep = state.pending;
  // One driver for the screen's life: it holds the console's sign-in in progress.
  const [driver] = useState<SignInDriver>(
    () =>
      hosted?.driver ??
      consoleSignInDriver({
        realm: state.tenant?.name ?? null,
        language: i18n.language,
        resume: pendingStep !== undefined,
      }),
  );
  const { stage, advance, finish, restart } = useSignInSteps(driver, toConsole, pendingStep);
  const login = useAction(async (input: LoginInput) => advance(await driver.password(input)));
  const google = useGoogleSignIn(driver, advance);
  const [email, setEmail] = useState(() => state.values?.username ?? hosted?.loginHint ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => state.values?.remember === 'on');
  const emailField = useTypedValue(email, setEmail);
  const passwordField = useTypedValue(password, setPassword);
  const rememberField = useTypedChecked(remember, setRemember);
  const passkeys = usePasskeysSupported();
  // The refusal the page was rendered with (a form posted without script), until the next try.
  const [refused, setRefused] = useState(() => pageFailure(state.error));

  useEffect(() => {
    // "Remember me" kept the e-mail on this browser: offered once the page runs.
    const remembered = getRememberedEmail();
    if (remembered === '' || state.values !== undefined) return;
    // Storage is read once the page runs (the server has none), so after the first render.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (!emailField.current?.value) setEmail(remembered);
    setRemember(true);
    // Once, at the start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setRefused(undefined);
    login.run({ email: email.trim(), password, remember });
  };
  const backToPassword = () => {
    setPassword('');
    setRefused(undefined);
    login.reset();
    restart();
  };

  // Without script the forms post to their own page's address, which the server answers:
  // the application's request's page, or the console's sign-in.
  const hostedPath = hosted ? hostedSignInPath(hosted.realm, hosted.uid) : undefined;
  const stepsPath = hostedPath ?? pendingStep?.stepsPath;
  if (stage.step !== 'password') {
    return (
      <SignInStageScreen
        stage={stage}
        driver={driver}
        advance={advance}
        finish={finish}
        onBack={backToPassword}
        stepsPath={stepsPath}
        refused={refused}
      />
    );
  }

  const failure = login.isError ? login.error : refused;
  const action = hostedPath ?? AUTH_PAGE_PATHS.signIn;
  return (
    <AuthLayout title={t('signIn.title')}>
      {state.tenant?.signupEnabled ? (
        <p className="auth-text">
          {t('signIn.noAccount')}{' '}
          <AuthLink to={AUTH_PAGE_PATHS.signUp}>{t('signIn.signUpLink')}</AuthLink>
        </p>
      ) : null}
      <GoogleButton text="signin_with" onCredential={(credential) => google.run(credential)} />
      {google.isError ? <Alert severity="error">{t('auth.googleFailed')}</Alert> : null}
      <form method="post" action={action} noValidate onSubmit={onSubmit}>
        <FormToken />
        <TextField
          label={t('auth.email')}
          type="email"
          name="username"
          autoComplete="username"
          value={email}
          onChange={setEmail}
          inputRef={emailField}
          required
        />
        <PasswordField
          label={t('auth.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          inputRef={passwordField}
          required
        />
        <div className="auth-row">
          <Checkbox
            label={t('signIn.rememberMe')}
            name="remember"
            checked={remember}
            onChange={setRemember}
            inputRef={rememberField}
          />
          <AuthLink to={links.forgotPassword(email.trim() || undefined)}>
            {t('signIn.forgotPassword')}
          </AuthLink>
        </div>
        {failure !== undefined ? (
          <Alert severity="error">{signInFailureText(t, failure)}</Alert>
        ) : null}
        <PrimaryButton busy={login.isPending} busyLabel={t('signIn.submitting')}>
          {t('signIn.submit')}
        </PrimaryButton>
      </form>
      {hosted?.passkeys !== false && passkeys ? (
        <>
          <hr className="auth-divider" />
          <PasskeyButton
            label={t('signInSteps.passkey')}
            signIn={async () => advance(await driver.passkey({ remember }))}
          />
        </>
      ) : null}
    </AuthLayout>
  );
}
