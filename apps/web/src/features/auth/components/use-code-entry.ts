import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { typedCode } from '../../../components/code-field';

/**
 * A one-time code typed and sent (the second factor, the enrolment's first code): nothing is
 * sent while the field is empty, which the field then says; a refused code is cleared and the
 * field has the focus again, so the next try is one field away.
 */
export function useCodeEntry(send: (code: string) => Promise<void>) {
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const sending = useMutation({
    mutationFn: send,
    onError: () => {
      setCode('');
      field.current?.focus();
    },
  });
  return {
    code,
    missing,
    field,
    sending,
    change: (value: string) => {
      setCode(value);
      setMissing(false);
    },
    submit: (event: FormEvent) => {
      event.preventDefault();
      const value = typedCode(code);
      setMissing(value === '');
      if (value !== '') sending.mutate(value);
    },
    /** An empty field again, no refusal shown: another kind of code was chosen. */
    clear: () => {
      setCode('');
      setMissing(false);
      sending.reset();
    },
  };
}
