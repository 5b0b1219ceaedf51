import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import type { ClientType, GrantType } from '@tc/contract/clients';
import { useId } from 'react';
import { useController, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateFieldMessage } from '../../../lib/problem-text';
import { offeredGrants, sortGrants, type ClientForm } from '../form-state';

/**
 * The grant types as checkboxes, each with its protocol name (the problem texts use those).
 * client_credentials is only offered to a confidential client.
 */
export function GrantTypesField(props: {
  control: Control<ClientForm, unknown, unknown>;
  type: ClientType;
  disabled: boolean;
}) {
  const { t } = useTranslation('clients');
  const helperId = useId();
  const { field, fieldState } = useController({ control: props.control, name: 'grantTypes' });
  const chosen = field.value;
  const message = fieldState.error?.message;
  const toggle = (grant: GrantType, on: boolean) =>
    field.onChange(sortGrants(on ? [...chosen, grant] : chosen.filter((g) => g !== grant)));
  return (
    <FormControl
      component="fieldset"
      required
      error={message !== undefined}
      disabled={props.disabled}
      margin="dense"
      aria-describedby={message ? helperId : undefined}
    >
      <FormLabel component="legend">{t('grantTypes')}</FormLabel>
      <FormGroup row>
        {offeredGrants(props.type).map((grant, index) => (
          <FormControlLabel
            key={grant}
            control={
              <Checkbox
                checked={chosen.includes(grant)}
                onChange={(event) => toggle(grant, event.target.checked)}
                onBlur={field.onBlur}
                // The form focuses the first checkbox when the grants are refused.
                slotProps={{ input: { ref: index === 0 ? field.ref : undefined } }}
              />
            }
            label={
              <>
                {t(`grants.${grant}`)}{' '}
                <Typography component="span" variant="body2" color="text.secondary">
                  ({grant})
                </Typography>
              </>
            }
          />
        ))}
      </FormGroup>
      {message ? (
        <FormHelperText id={helperId}>{translateFieldMessage(t, message)}</FormHelperText>
      ) : null}
    </FormControl>
  );
}
