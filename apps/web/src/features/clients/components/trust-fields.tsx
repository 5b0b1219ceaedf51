import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldError } from '../../../components/form/form-fields';
import type { ClientForm } from '../form-state';

/**
 * A yes/no of trust, with what it means under it; the server's refusal (the caller does not
 * hold every permission the application's tokens could carry) lands here, on its field.
 */
function TrustSwitch(props: {
  control: Control<ClientForm, unknown, unknown>;
  name: 'firstParty' | 'consoleApiAccess';
  label: string;
  hint: string;
  disabled: boolean;
}) {
  const { field, error, helperText } = useFieldError({ ...props, helperText: props.hint });
  return (
    <FormControl error={error} disabled={props.disabled} sx={{ mt: 1, display: 'flex' }}>
      <FormControlLabel
        label={props.label}
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
      <FormHelperText>{helperText}</FormHelperText>
    </FormControl>
  );
}

/** Whether the application is the tenant's own (no consent) and may call the console API. */
export function TrustFields(props: {
  control: Control<ClientForm, unknown, unknown>;
  disabled: boolean;
}) {
  const { t } = useTranslation('clients');
  return (
    <>
      <TrustSwitch
        {...props}
        name="firstParty"
        label={t('firstParty')}
        hint={t('firstPartyHint')}
      />
      <TrustSwitch
        {...props}
        name="consoleApiAccess"
        label={t('consoleApiAccess')}
        hint={t('consoleApiAccessHint')}
      />
    </>
  );
}
