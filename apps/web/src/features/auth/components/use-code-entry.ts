import { useEffect, useRef, useState, type FormEvent } from 'react';
import { typedCode } from '../ui/fields';
import { useAction } from '../api/use-action';

/**
 * A one-time code typed and sent (the second factor, the enrolment's first code): nothing is
 * sent while the field is empty, which the field then says; a refused code is cleared and the
 * field has the focus again, so the next try is one field away. `refused` is the refusal the
 * page was rendered with (a code posted without script), shown until the next try.
 */
export function useCodeEntry(send: (code: string) => Promise<void>, refused?: unknown) {
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const [initialShown, setInitialShown] = useState(refused !== undefined);
  const field = useRef<HTMLInputElement>(null);
  const sending = useAction(send);
  useEffect(() => {
    // A code typed before the script took the page over.
    const typed = field.current?.value;
    if (typed) setCode(typed);
  }, []);
  const failure: unknown = sending.isError ? sending.error : initialShown ? refused : undefined;
  return {
    code,
    missing,
    field,
    sending,
    /** The refusal to show: of the last try, or the one the page was rendered with. */
    failure,
    change: (value: string) => {
      setCode(value);
      setMissing(false);
    },
    submit: (event: FormEvent) => {
      event.preventDefault();
      const value = typedCode(code);
      setMissing(value === '');
      if (value === '') return;
      setInitialShown(false);
      sending.run(value, {
        onError: () => {
          setCode('');
          field.current?.focus();
        },
      });
    },
    /** An empty field again, no refusal shown: another kind of code was chosen. */
    clear: () => {
      setCode('');
      setMissing(false);
      setInitialShown(false);
      sending.reset();
    },
  };
}
