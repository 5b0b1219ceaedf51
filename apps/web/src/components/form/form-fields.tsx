import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { translateFieldMessage } from '../../lib/problem-text';

export interface FieldProps<Values extends FieldValues, Out = Values> {
  control: Control<Values, unknown, Out>;
  name: FieldPath<Values>;
  label: string;
  disabled?: boolean;
  required?: boolean;
  helperText?: ReactNode;
}

export interface Option {
  value: string;
  label: string;
  /** A second line under the label in the list (a user's e-mail beside the name). */
  detail?: string;
}

/** The field's message in the UI language: the contract's and the server's texts are English. */
export function useFieldError<Values extends FieldValues, Out>(props: FieldProps<Values, Out>) {
  const { t } = useTranslation();
  const controller = useController({ control: props.control, name: props.name });
  const message = controller.fieldState.error?.message;
  return {
    ...controller,
    error: message !== undefined,
    helperText: message ? translateFieldMessage(t, message) : props.helperText,
  };
}

export function TextInput<Values extends FieldValues, Out>(
  props: FieldProps<Values, Out> & {
    type?: 'text' | 'email' | 'number';
    multiline?: boolean;
    placeholder?: string;
    autoFocus?: boolean;
    inputMode?: 'decimal' | 'numeric' | 'text';
    autoComplete?: string;
  },
) {
  const { field, error, helperText } = useFieldError(props);
  return (
    <TextField
      {...field}
      value={(field.value as string | null | undefined) ?? ''}
      label={props.label}
      type={props.type ?? 'text'}
      required={props.required}
      disabled={props.disabled}
      multiline={props.multiline}
      minRows={props.multiline ? 3 : undefined}
      placeholder={props.placeholder}
      autoFocus={props.autoFocus}
      autoComplete={props.autoComplete ?? 'off'}
      error={error}
      helperText={helperText}
      fullWidth
      margin="dense"
      slotProps={{ htmlInput: { inputMode: props.inputMode } }}
    />
  );
}

export function SelectInput<Values extends FieldValues, Out>(
  props: FieldProps<Values, Out> & { options: Option[]; emptyLabel?: string },
) {
  const { field, error, helperText } = useFieldError(props);
  return (
    <TextField
      {...field}
      value={(field.value as string | null | undefined) ?? ''}
      select
      label={props.label}
      required={props.required}
      disabled={props.disabled}
      error={error}
      helperText={helperText}
      fullWidth
      margin="dense"
    >
      {props.emptyLabel !== undefined ? <MenuItem value="">{props.emptyLabel}</MenuItem> : null}
      {props.options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Active or inactive (users and roles), labelled in the UI language. */
export function StatusInput<Values extends FieldValues, Out>(props: FieldProps<Values, Out>) {
  const { t } = useTranslation('lists');
  return (
    <SelectInput
      {...props}
      options={[
        { value: 'active', label: t('active') },
        { value: 'inactive', label: t('inactive') },
      ]}
    />
  );
}
