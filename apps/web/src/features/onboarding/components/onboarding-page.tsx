import Button from '@mui/material/Button';
import type { Onboarding, OnboardingStep } from '@tc/contract/onboarding';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../lib/paths';
import { useLogout } from '../../../lib/logout';
import { useOnboarding } from '../../../lib/onboarding';
import { CompletePage } from './complete-page';
import { OnboardingLayout } from './onboarding-layout';
import { PermissionStep } from './permission-step';
import { RoleStep } from './role-step';
import { StepLoading } from './step-loading';
import { UserStep } from './user-step';
import { WelcomePage } from './welcome-page';

const stepPaths: Record<OnboardingStep, string> = {
  welcome: paths.welcome,
  'first-step': paths.firstStep,
  'second-step': paths.secondStep,
  'third-step': paths.thirdStep,
  complete: paths.complete,
};

const steps: Record<Exclude<OnboardingStep, 'welcome' | 'complete'>, typeof RoleStep> = {
  'first-step': RoleStep,
  'second-step': PermissionStep,
  'third-step': UserStep,
};

/** Set by the wizard's own "Go back": the welcome page then stays instead of resuming. */
interface WizardState {
  fromWizard?: boolean;
}

function Content({ step }: { step: OnboardingStep }) {
  const progress = useOnboarding();
  const location = useLocation();
  const data: Onboarding | undefined = progress.data;

  if (step === 'complete') return <CompletePage />;
  if (step === 'welcome') {
    // Opening the wizard again resumes at the saved step: progress survives a reload.
    const fromWizard = (location.state as WizardState | null)?.fromWizard === true;
    if (progress.isPending) return <StepLoading query={progress} />;
    if (data && !data.completed && data.step !== 'welcome' && !fromWizard) {
      return <Navigate to={stepPaths[data.step]} replace />;
    }
    return <WelcomePage progress={data} />;
  }
  if (!data) return <StepLoading query={progress} />;
  const Step = steps[step];
  return <Step progress={data} />;
}

/**
 * The onboarding: welcome, three steps that create a role,
 * a permission and an invited user, and completion; the progress is kept on the server.
 */
export default function OnboardingPage({ step }: { step: OnboardingStep }) {
  const { t } = useTranslation('onboarding');
  const logout = useLogout();
  return (
    <OnboardingLayout
      headerActions={
        <Button color="inherit" onClick={() => logout.mutate()} disabled={logout.isPending}>
          {t('logout')}
        </Button>
      }
    >
      {/* Keyed by step: each page starts with its own form state. */}
      <Content key={step} step={step} />
    </OnboardingLayout>
  );
}
