import LinearProgress from '@mui/material/LinearProgress';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { GuestOnly, LandingRedirect, RequireAuth, RequireSuperAdmin } from './guards';
import SignInPage from '../features/auth/components/sign-in-page';
import { paths } from '../lib/paths';
import { loadLayout, loadScreen } from './screens';

// Sign-in is where every visit without a session starts, so it is part of the entry and
// index.html preloads it with the rest: no second round trip before the form paints.
// Every other screen is its own chunk.
const SignUpPage = lazy(() => import('../features/auth/components/sign-up-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/components/forgot-password-page'));
const CheckEmailPage = lazy(() => import('../features/auth/components/check-email-page'));
const NewPasswordPage = lazy(() => import('../features/auth/components/new-password-page'));
const PasswordResetPage = lazy(() => import('../features/auth/components/password-reset-page'));
const VerifyEmailPage = lazy(() => import('../features/auth/components/verify-email-page'));
const AppLayout = lazy(loadLayout);
const HomePage = lazy(loadScreen[paths.home]);
const TenantsPage = lazy(loadScreen[paths.tenants]);
const UsersPage = lazy(loadScreen[paths.users]);
const RolesPage = lazy(loadScreen[paths.roles]);
const PermissionsPage = lazy(loadScreen[paths.permissions]);
const ProjectsPage = lazy(loadScreen[paths.projects]);
const OnboardingPage = lazy(loadScreen.onboarding);

const sections = [
  { path: paths.users, Page: UsersPage },
  { path: paths.roles, Page: RolesPage },
  { path: paths.permissions, Page: PermissionsPage },
  { path: paths.projects, Page: ProjectsPage },
] as const;

const onboarding = [
  { path: paths.welcome, step: 'welcome' },
  { path: paths.firstStep, step: 'first-step' },
  { path: paths.secondStep, step: 'second-step' },
  { path: paths.thirdStep, step: 'third-step' },
  { path: paths.complete, step: 'complete' },
] as const;

export function AppRoutes() {
  return (
    <Suspense fallback={<LinearProgress aria-label="Loading" />}>
      <Routes>
        <Route element={<GuestOnly />}>
          <Route path={paths.root} element={<SignInPage />} />
          <Route path={paths.login} element={<SignInPage />} />
        </Route>
        <Route path={paths.signup} element={<SignUpPage />} />
        <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={paths.checkEmail} element={<CheckEmailPage />} />
        <Route path={paths.newPassword} element={<NewPasswordPage />} />
        <Route path={paths.passwordReset} element={<PasswordResetPage />} />
        <Route path={paths.verifyEmail} element={<VerifyEmailPage />} />
        <Route element={<RequireAuth />}>
          <Route element={<AppLayout />}>
            <Route path={paths.home} element={<HomePage />} />
            <Route path={paths.dashboard} element={<LandingRedirect />} />
            <Route element={<RequireSuperAdmin />}>
              <Route path={paths.tenants} element={<TenantsPage />} />
            </Route>
            {sections.map(({ path, Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
          </Route>
          {onboarding.map((step) => (
            <Route key={step.path} path={step.path} element={<OnboardingPage step={step.step} />} />
          ))}
        </Route>
        <Route path="*" element={<Navigate to={paths.root} replace />} />
      </Routes>
    </Suspense>
  );
}
