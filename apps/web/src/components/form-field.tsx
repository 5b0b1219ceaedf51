import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId, type ChangeEventHandler, type ReactNode } from 'react';

export interface FormFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  endAdornment?: ReactNode;
  inputLabel?: string;
  autoFocus?: boolean;
}

/**
 * A labelled outlined text input. MUI's TextField also bundles Select (Menu, Popover, Modal);
 * the sign-in route does not need them, so forms use this leaner composition.
 */
export function FormField(props: FormFieldProps) {
  const id = useId();
  const helperId = `${id}-helper`;
  return (
    <FormControl
      fullWidth
      margin="normal"
      required={props.required}
      error={props.error}
      variant="outlined"
    >
      <InputLabel htmlFor={id}>{props.label}</InputLabel>
      <OutlinedInput
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        label={props.label}
        value={props.value}
        onChange={props.onChange}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        endAdornment={props.endAdornment}
        autoFocus={props.autoFocus}
        inputProps={{
          'aria-describedby': props.helperText ? helperId : undefined,
          'aria-label': props.inputLabel,
        }}
      />
      {props.helperText ? <FormHelperText id={helperId}>{props.helperText}</FormHelperText> : null}
    </FormControl>
  );
}
