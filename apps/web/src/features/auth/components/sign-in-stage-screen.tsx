import type { SignInStep } from '@tc/contract/sign-in-steps';
import { useTranslation } from 'react-i18next';
import type { SignInDriver } from '../api/sign-in-driver';
import { AuthLayout } from '../ui/auth-layout';
import EnrolStep from './enrol-step';
import { RecoveryCodesStep } from './recovery-codes-step';
import { SecondFactorStep } from './second-factor-step';
import type { SignInStage } from './use-sign-in-steps';

/**
 * The screen of a sign-in past its first step (the password, Google, a passkey): the second
 * factor, the enrolment the tenant requires, or the recovery codes it ends with. Null while
 * the sign-in is at its first step, which the sign-in and sign-up screens show themselves.
 * (The enrolment loads its QR code's library itself, when it is shown.)
 */
export function SignInStageScreen({
  stage,
  driver,
  advance,
  finish,
  onBack,
  stepsPath,
  refused,
}: {
  stage: SignInStage;
  driver: SignInDriver;
  advance: (step: SignInStep) => Promise<void>;
  finish: (redirectTo: string) => Promise<void>;
  /** Back to the first step, the sign-in abandoned. */
  onBack: () => void;
  /**
   * The sign-in request's page (`/login-actions/{realm}/{uid}`), where known: its second
   * step's form posts there without script.
   */
  stepsPath?: string;
  /** The refusal of a step posted without script, which the page was rendered with. */
  refused?: unknown;
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
          action={stepsPath}
          refused={refused}
        />
      </AuthLayout>
    );
  }
  if (stage.step === 'enrol') {
    return (
      <AuthLayout title={t('signInSteps.enrol.title')}>
        <EnrolStep
          start={() => driver.startEnrolment()}
          confirm={async (code) => advance(await driver.confirmEnrolment(code))}
          onBack={onBack}
        />
      </AuthLayout>
    );
  }
  if (stage.step === 'recovery-codes') {
    return (
      <AuthLayout title={t('signInSteps.recoveryCodes.title')}>
        <RecoveryCodesStep
          codes={stage.recoveryCodes}
          onContinue={() => finish(stage.redirectTo)}
        />
      </AuthLayout>
    );
  }
  return null;
}
