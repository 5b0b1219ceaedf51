import LinearProgress from '@mui/material/LinearProgress';
import type { SignInStep } from '@tc/contract/sign-in-steps';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignInDriver } from '../api/sign-in-driver';
import { AuthLayout } from './auth-layout';
import { RecoveryCodesStep } from './recovery-codes-step';
import { SecondFactorStep } from './second-factor-step';
import type { SignInStage } from './use-sign-in-steps';

// The QR code's library loads with the enrolment, which few sign-ins reach.
const EnrolStep = lazy(() => import('./enrol-step'));

/**
 * The screen of a sign-in past its first step (the password, Google, a passkey): the second
 * factor, the enrolment the tenant requires, or the recovery codes it ends with. Null while
 * the sign-in is at its first step, which the sign-in and sign-up screens show themselves.
 */
export function SignInStageScreen({
  stage,
  driver,
  advance,
  finish,
  onBack,
}: {
  stage: SignInStage;
  driver: SignInDriver;
  advance: (step: SignInStep) => Promise<void>;
  finish: (redirectTo: string) => Promise<void>;
  /** Back to the first step, the sign-in abandoned. */
  onBack: () => void;
}) {
  const { t } = useTranslation();
  if (stage.step === 'second-factor') {
    return (
      <AuthLayout title={t('signInSteps.secondFactor.title')}>
        <SecondFactorStep
          methods={stage.methods}
          verify={async (code) => advance(await driver.secondFactor(code))}
          passkey={async () => advance(await driver.secondFactorPasskey())}
          onBack={onBack}
        />
      </AuthLayout>
    );
  }
  if (stage.step === 'enrol') {
    return (
      <AuthLayout title={t('signInSteps.enrol.title')}>
        <Suspense fallback={<LinearProgress aria-label={t('signInSteps.enrol.loading')} />}>
          <EnrolStep
            start={() => driver.startEnrolment()}
            confirm={async (code) => advance(await driver.confirmEnrolment(code))}
            onBack={onBack}
          />
        </Suspense>
      </AuthLayout>
    );
  }
  if (stage.step === 'recovery-codes') {
    return (
      <AuthLayout title={t('signInSteps.recoveryCodes.title')}>
        {/* Its texts are shared with the account page's: a chunk of their own, which the
            enrolment before it has usually loaded. */}
        <Suspense fallback={<LinearProgress aria-label={t('layout.loading')} />}>
          <RecoveryCodesStep
            codes={stage.recoveryCodes}
            onContinue={() => finish(stage.redirectTo)}
          />
        </Suspense>
      </AuthLayout>
    );
  }
  return null;
}
