import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/**
 * A form's main action, full width: while its request runs it is disabled, so nothing is sent
 * twice, and says what is happening (`busyLabel`, where the form has one). A submit button,
 * unless it has an `onClick` of its own.
 */
export function BusyButton(props: {
  busy: boolean;
  busyLabel?: string;
  /** Disabled for another reason too (already sent, nothing to send with). */
  disabled?: boolean;
  onClick?: () => void;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <Button
      type={props.onClick ? 'button' : 'submit'}
      variant="contained"
      fullWidth
      size="large"
      disabled={props.busy || props.disabled}
      onClick={props.onClick}
      sx={props.sx ?? { mt: 2 }}
    >
      {props.busy && props.busyLabel !== undefined ? props.busyLabel : props.children}
    </Button>
  );
}
