import type { MouseEvent, ReactNode } from 'react';
import { useAuthPage } from '../auth-page-context';

/**
 * A form's main action, full width: while its request runs it is disabled and busy
 * (aria-busy), so nothing is sent twice, and says what is happening (`busyLabel`). Both labels
 * share one cell, so it keeps its size. A submit button unless it has an `onClick`.
 */
export function PrimaryButton(props: {
  busy?: boolean;
  busyLabel?: string;
  disabled?: boolean;
  onClick?: () => void;
  children: ReactNode;
}) {
  const busy = props.busy === true;
  const showBusy = busy && props.busyLabel !== undefined;
  return (
    <button
      type={props.onClick ? 'button' : 'submit'}
      className="auth-button auth-button-primary"
      disabled={busy || props.disabled}
      aria-busy={busy || undefined}
      onClick={props.onClick}
    >
      <span
        style={showBusy ? { visibility: 'hidden' } : undefined}
        aria-hidden={showBusy || undefined}
      >
        {props.children}
      </span>
      {props.busyLabel !== undefined ? (
        <span
          style={showBusy ? undefined : { visibility: 'hidden' }}
          aria-hidden={!showBusy || undefined}
        >
          {props.busyLabel}
        </span>
      ) : null}
    </button>
  );
}

/** A second action: outlined (another way to sign in) or plain text (back, switch). */
export function Button(props: {
  variant?: 'outlined' | 'text';
  small?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  const classes = ['auth-button', `auth-button-${props.variant ?? 'text'}`];
  if (props.small) classes.push('auth-button-small');
  return (
    <button
      type="button"
      className={classes.join(' ')}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      <span>{props.children}</span>
    </button>
  );
}

/** An error (role="alert", announced), a success or a note (role="status"). */
export function Alert(props: { severity: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div
      role={props.severity === 'error' ? 'alert' : 'status'}
      className={`auth-alert auth-alert-${props.severity}`}
    >
      {props.children}
    </div>
  );
}

/** Work under way of unknown length, named for assistive technology. */
export function Progress({ label }: { label: string }) {
  return <div className="auth-progress" role="progressbar" aria-label={label} />;
}

const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * A link to another sign-in page: a plain link the server answers, which with script shows
 * the page without a page load (and may hand it `state`, e.g. the e-mail to check).
 */
export function AuthLink(props: { to: string; state?: unknown; children: ReactNode }) {
  const { navigate } = useAuthPage();
  return (
    <a
      className="auth-link"
      href={props.to}
      onClick={(event) => {
        if (!plainClick(event)) return;
        event.preventDefault();
        navigate(props.to, props.state === undefined ? undefined : { state: props.state });
      }}
    >
      {props.children}
    </a>
  );
}
