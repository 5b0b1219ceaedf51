import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'>;

export interface TextFieldProps extends InputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A refusal of the field: shown under it, the field marked invalid and described by it. */
  error?: string | null;
  /** A hint under the field while it has no error. */
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Something inside the field's box, after the input (the password's show button). */
  adornment?: ReactNode;
}

/** A labelled input with its message (error or hint) linked to it. */
export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  inputRef,
  adornment,
  className,
  ...input
}: TextFieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const message = error || hint;
  return (
    <div className="auth-field">
      <label className="auth-label" htmlFor={id}>
        {label}
      </label>
      <div className="auth-input-row">
        <input
          {...input}
          id={id}
          ref={inputRef}
          className={['auth-input', className].filter(Boolean).join(' ')}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={message ? messageId : undefined}
        />
        {adornment}
      </div>
      {message ? (
        <p
          id={messageId}
          className={error ? 'auth-field-message auth-field-message-error' : 'auth-field-message'}
        >
          {message}
        </p>
      ) : null}
    </div>
  );
}

const EYE =
  'M12 5c-5 0-9 4.5-10 7 1 2.5 5 7 10 7s9-4.5 10-7c-1-2.5-5-7-10-7zm0 11.5a4.5 4.5 0 110-9 4.5 4.5 0 010 9zm0-2.5a2 2 0 100-4 2 2 0 000 4z';
const STRUCK = 'M3.3 2.3L2 3.6l18.4 18.4 1.3-1.3z';

/**
 * A password field with a labelled show/hide button. The button is rendered from the start
 * (no jump when the script takes over); before then it does nothing.
 */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'adornment'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      className="auth-input-with-toggle"
      adornment={
        <button
          type="button"
          className="auth-toggle"
          aria-label={visible ? t('auth.hidePassword') : t('auth.showPassword')}
          onClick={() => setVisible((shown) => !shown)}
        >
          <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d={EYE} />
            {visible ? <path fill="currentColor" d={STRUCK} /> : null}
          </svg>
        </button>
      }
    />
  );
}

/**
 * The field of a one-time code: six digits of an authenticator app (the keypad; the browser
 * may fill it: `one-time-code`), or a recovery code (letters and dashes, never remembered).
 * Posted as `code` either way, as the second step's form takes it.
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
  const totp = props.kind === 'totp';
  return (
    <TextField
      label={props.label}
      name="code"
      value={props.value}
      onChange={props.onChange}
      error={props.error}
      inputRef={props.inputRef}
      disabled={props.disabled}
      required
      autoFocus
      className="auth-input-code"
      autoComplete={totp ? 'one-time-code' : 'off'}
      inputMode={totp ? 'numeric' : 'text'}
      maxLength={totp ? 8 : 32}
      spellCheck={false}
      autoCapitalize={totp ? 'off' : 'characters'}
    />
  );
}

/** What was typed, as the server reads a code: no spaces (apps show `123 456`). */
export const typedCode = (value: string) => value.replace(/\s+/g, '');

/** A checkbox with its label; posted as "on" when ticked. */
export function Checkbox({
  label,
  name,
  checked,
  onChange,
  error,
  inputRef,
}: {
  label: string;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div>
      <label className="auth-check">
        <input
          type="checkbox"
          name={name}
          ref={inputRef}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? messageId : undefined}
        />
        <span>{label}</span>
      </label>
      {error ? (
        <p id={messageId} className="auth-field-message auth-field-message-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
