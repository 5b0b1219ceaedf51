import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { translateFieldMessage } from '../../../lib/problem-text';

interface ControlProps<Values extends FieldValues, Out> {
  control: Control<Values, unknown, Out>;
  name: Path<Values>;
  label: string;
  disabled?: boolean;
}

/** A yes/no field as a switch (the tenant's "Allow sign-up"). */
export function SwitchInput<Values extends FieldValues, Out>(props: ControlProps<Values, Out>) {
  const { field } = useController({ control: props.control, name: props.name });
  return (
    <FormControlLabel
      label={props.label}
      disabled={props.disabled}
      sx={{ mt: 1 }}
      control={
        <Switch
          name={field.name}
          slotProps={{ input: { ref: field.ref } }}
          checked={Boolean(field.value)}
          onChange={(event) => field.onChange(event.target.checked)}
          onBlur={field.onBlur}
        />
      }
    />
  );
}

/**
 * An optional e-mail address: left empty it is absent (undefined), not '', because the
 * contract checks any text given as an address (tenantCreateSchema.adminEmail).
 */
export function OptionalEmailInput<Values extends FieldValues, Out>(
  props: ControlProps<Values, Out> & { helperText?: string },
) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const message = fieldState.error?.message;
  return (
    <TextField
      name={field.name}
      inputRef={field.ref}
      value={(field.value as string | undefined) ?? ''}
      onChange={(event) =>
        field.onChange(event.target.value === '' ? undefined : event.target.value)
      }
      onBlur={field.onBlur}
      label={props.label}
      type="email"
      autoComplete="off"
      disabled={props.disabled}
      error={message !== undefined}
      helperText={message ? translateFieldMessage(t, message) : props.helperText}
      fullWidth
      margin="dense"
    />
  );
}
