import { useEffect, useState } from 'react';
import { verifyEmail } from './account-requests';

export { verifyEmail };

type Verification = Awaited<ReturnType<typeof verifyEmail>>;

// The token is single-use: one call per token for the page's life, even when React mounts
// the page twice (StrictMode).
const calls = new Map<string, Promise<Verification>>();
const verifyOnce = (token: string) => {
  let call = calls.get(token);
  if (!call) {
    call = verifyEmail(token);
    calls.set(token, call);
  }
  return call;
};

export type VerifyEmailState =
  | { status: 'pending' }
  | { status: 'error'; error: unknown }
  | { status: 'success'; data: Verification };

/** Verifies once the page runs (pending until then, as the server renders it). */
export function useVerifyEmail(token: string): VerifyEmailState {
  const [state, setState] = useState<VerifyEmailState>({ status: 'pending' });
  useEffect(() => {
    if (token === '') return;
    let active = true;
    verifyOnce(token).then(
      (data) => active && setState({ status: 'success', data }),
      (error: unknown) => active && setState({ status: 'error', error }),
    );
    return () => {
      active = false;
    };
  }, [token]);
  return state;
}
