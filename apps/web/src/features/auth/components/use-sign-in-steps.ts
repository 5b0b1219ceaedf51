import type { PendingSignInStep } from '@tc/contract/auth-page';
import type { SecondFactorMethod, SignInStep } from '@tc/contract/sign-in-steps';
import { useCallback, useState } from 'react';
import type { Session } from '../../../lib/session';
import type { SignInDriver } from '../api/sign-in-driver';

/** Where the sign-in screen is: the password (or passkey) first, then what the server asks. */
export type SignInStage =
  | { step: 'password' }
  | { step: 'second-factor'; methods: readonly SecondFactorMethod[] }
  | { step: 'enrol' }
  | { step: 'recovery-codes'; recoveryCodes: readonly string[]; redirectTo: string };

/** The stage a page opens at: the step a sign-in posted without script waits for, if any. */
function openingStage(pending: PendingSignInStep | undefined): SignInStage {
  if (pending?.step.next === 'second-factor') {
    return { step: 'second-factor', methods: pending.step.methods };
  }
  if (pending?.step.next === 'enrol') return { step: 'enrol' };
  return { step: 'password' };
}

/**
 * Follows the server's answers: a second factor or the required enrolment is a stage of the
 * screen; `done` finishes the sign-in, except after an enrolment, whose recovery codes are
 * shown first and the sign-in finishes when the user goes on.
 */
export function useSignInSteps(
  driver: SignInDriver,
  onSignedIn: (session: Session) => void,
  pending?: PendingSignInStep,
) {
  const [stage, setStage] = useState<SignInStage>(() => openingStage(pending));
  const finish = useCallback(
    async (redirectTo: string) => {
      const session = await driver.finish(redirectTo);
      if (session) onSignedIn(session);
    },
    [driver, onSignedIn],
  );
  const advance = useCallback(
    async (answer: SignInStep) => {
      if (answer.next === 'second-factor')
        setStage({ step: 'second-factor', methods: answer.methods });
      else if (answer.next === 'enrol') setStage({ step: 'enrol' });
      else if (answer.recoveryCodes?.length) {
        setStage({
          step: 'recovery-codes',
          recoveryCodes: answer.recoveryCodes,
          redirectTo: answer.redirectTo,
        });
      } else await finish(answer.redirectTo);
    },
    [finish],
  );
  const restart = useCallback(() => setStage({ step: 'password' }), []);
  return { stage, advance, finish, restart };
}
