import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  SCIM_DELETE_MODES,
  SCIM_NEW_USER_MODES,
  type ProvisioningSettings,
  type ProvisioningSettingsView,
} from '@tc/contract/provisioning';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../components/notifications';
import { describeFailure } from '../../../lib/problem-text';
import { useUpdateProvisioning } from '../api/provisioning';

function Choice<Value extends string>(props: {
  label: string;
  name: string;
  values: readonly Value[];
  value: Value;
  labelOf: (value: Value) => string;
  onChange: (value: Value) => void;
  disabled: boolean;
}) {
  const legendId = useId();
  return (
    <FormControl component="fieldset" disabled={props.disabled}>
      <FormLabel component="legend" id={legendId}>
        {props.label}
      </FormLabel>
      <RadioGroup
        aria-labelledby={legendId}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as Value)}
      >
        {props.values.map((value) => (
          <FormControlLabel
            key={value}
            value={value}
            control={<Radio />}
            label={props.labelOf(value)}
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}

/**
 * How users provisioned by an identity system over SCIM start, and what its DELETE does; the
 * SCIM base URL to enter there. Without tenant:write every control is read-only and there is
 * no Save.
 */
export function ProvisioningForm({
  settings,
  canWrite,
}: {
  settings: ProvisioningSettingsView;
  canWrite: boolean;
}) {
  const { t } = useTranslation(['settings', 'lists']);
  const save = useUpdateProvisioning();
  const [values, setValues] = useState<ProvisioningSettings>({
    scimNewUsers: settings.scimNewUsers,
    scimDelete: settings.scimDelete,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const busy = save.isPending;
  const disabled = !canWrite || busy;

  async function submit() {
    setFailure(null);
    try {
      const saved = await save.mutateAsync(values);
      setValues({ scimNewUsers: saved.scimNewUsers, scimDelete: saved.scimDelete });
      notify(t('provisioning.saved'));
    } catch (error) {
      setFailure(describeFailure(t, error));
    }
  }

  return (
    <Stack
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      spacing={2}
    >
      {failure ? (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      ) : null}
      <TextField
        label={t('provisioning.baseUrl')}
        value={settings.scimBaseUrl}
        helperText={t('provisioning.baseUrlHint')}
        slotProps={{ htmlInput: { readOnly: true } }}
        fullWidth
      />
      <Choice
        label={t('provisioning.newUsers.label')}
        name="scimNewUsers"
        values={SCIM_NEW_USER_MODES}
        value={values.scimNewUsers}
        labelOf={(value) => t(`provisioning.newUsers.${value}`)}
        onChange={(scimNewUsers) => setValues((current) => ({ ...current, scimNewUsers }))}
        disabled={disabled}
      />
      <Choice
        label={t('provisioning.delete.label')}
        name="scimDelete"
        values={SCIM_DELETE_MODES}
        value={values.scimDelete}
        labelOf={(value) => t(`provisioning.delete.${value}`)}
        onChange={(scimDelete) => setValues((current) => ({ ...current, scimDelete }))}
        disabled={disabled}
      />
      {values.scimDelete === 'delete' && settings.scimDelete !== 'delete' ? (
        <Alert severity="warning">{t('provisioning.delete.warning')}</Alert>
      ) : null}
      {canWrite ? (
        <div>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('provisioning.save')}
          </Button>
        </div>
      ) : null}
    </Stack>
  );
}
