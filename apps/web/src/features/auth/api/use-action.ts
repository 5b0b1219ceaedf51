import { useCallback, useEffect, useRef, useState } from 'react';

type Status = 'idle' | 'pending' | 'error' | 'success';

export interface ActionCallbacks<Input, Output> {
  onSuccess?: (output: Output, input: Input) => void;
  onError?: (error: unknown, input: Input) => void;
}

export interface Action<Input, Output> {
  run: (input: Input, callbacks?: ActionCallbacks<Input, Output>) => void;
  /** Back to idle: no error or answer shown; an answer still under way is then ignored. */
  reset: () => void;
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
  error: unknown;
  data: Output | undefined;
  /** What the last run was given (e.g. the address a reset link went to). */
  input: Input | undefined;
}

interface ActionState<Input, Output> {
  status: Status;
  error: unknown;
  data: Output | undefined;
  input: Input | undefined;
}

const IDLE = { status: 'idle', error: null, data: undefined, input: undefined } as const;

/**
 * An async action's state for a page (pending, failed with its error, done with its answer):
 * what the sign-in pages need of a mutation, without a query library in their script. Only
 * the latest run counts; a page that is gone is not updated.
 */
export function useAction<Input = void, Output = unknown>(
  perform: (input: Input) => Promise<Output>,
): Action<Input, Output> {
  const [state, setState] = useState<ActionState<Input, Output>>(IDLE);
  const latest = useRef(0);
  const mounted = useRef(true);
  const performRef = useRef(perform);
  useEffect(() => {
    performRef.current = perform;
  });
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback((input: Input, callbacks: ActionCallbacks<Input, Output> = {}) => {
    const runId = ++latest.current;
    setState({ status: 'pending', error: null, data: undefined, input });
    const current = () => mounted.current && runId === latest.current;
    Promise.resolve()
      .then(() => performRef.current(input))
      .then(
        (data) => {
          if (!current()) return;
          setState({ status: 'success', error: null, data, input });
          callbacks.onSuccess?.(data, input);
        },
        (error: unknown) => {
          if (!current()) return;
          setState({ status: 'error', error, data: undefined, input });
          callbacks.onError?.(error, input);
        },
      );
  }, []);
  const reset = useCallback(() => {
    latest.current++;
    setState(IDLE);
  }, []);

  return {
    run,
    reset,
    isPending: state.status === 'pending',
    isError: state.status === 'error',
    isSuccess: state.status === 'success',
    error: state.error,
    data: state.data,
    input: state.input,
  };
}
