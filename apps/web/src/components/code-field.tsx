import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId, type Ref } from 'react';

/**
 * The field of a one-time code: six digits of an authenticator app (the phone's keypad, and the
 * browser may fill it from an SMS-like source: `one-time-code`), or a recovery code (letters
 * and dashes, never remembered by the browser).
 */
export function CodeField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  kind: 'totp' | 'recovery-code';
  error?: string | null;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const helperId = `${id}-helper`;
  const totp = props.kind === 'totp';
  return (
    <FormControl fullWidth margin="normal" required error={Boolean(props.error)}>
      <InputLabel htmlFor={id}>{props.label}</InputLabel>
      <OutlinedInput
        id={id}
        name={totp ? 'code' : 'recovery-code'}
        label={props.label}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoFocus
        inputRef={props.inputRef}
        disabled={props.disabled}
        autoComplete={totp ? 'one-time-code' : 'off'}
        inputProps={{
          inputMode: totp ? 'numeric' : 'text',
          maxLength: totp ? 8 : 32,
          spellCheck: false,
          autoCapitalize: totp ? 'off' : 'characters',
          'aria-describedby': props.error ? helperId : undefined,
          sx: { fontFamily: 'monospace', letterSpacing: totp ? '0.3em' : '0.1em' },
        }}
      />
      {props.error ? <FormHelperText id={helperId}>{props.error}</FormHelperText> : null}
    </FormControl>
  );
}

/** What was typed, as the server reads a code: no spaces (apps show `123 456`). */
export const typedCode = (value: string) => value.replace(/\s+/g, '');
