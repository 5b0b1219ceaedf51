import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  MFA_POLICIES,
  securityPolicySchema,
  type MfaPolicy,
  type SecurityPolicy,
} from '@tc/contract/security';
import { useId, useState } from 'react';
import { Controller, useForm, type FieldPath, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../components/notifications';
import { contractResolver } from '../../../lib/form-resolver';
import { placeFieldProblems, translateFieldMessage } from '../../../lib/problem-text';
import { useUpdateSecurityPolicy } from '../api/security-policy';

const POLICY_LABELS: Record<MfaPolicy, string> = {
  optional: 'security.mfa.optional',
  admins: 'security.mfa.admins',
  everyone: 'security.mfa.everyone',
};

function PolicySwitch(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  disabled: boolean;
}) {
  return (
    <FormControlLabel
      control={
        <Switch
          checked={props.checked}
          onChange={(event) => props.onChange(event.target.checked)}
          disabled={props.disabled}
        />
      }
      label={props.label}
    />
  );
}

/**
 * Who needs a second factor, and the password rules. An administrator's change applies from
 * the next sign-in or password change; nothing already set is undone. Without tenant:write
 * every control is read-only and there is no Save.
 */
export function SecurityPolicyForm({
  policy,
  canWrite,
}: {
  policy: SecurityPolicy;
  canWrite: boolean;
}) {
  const { t } = useTranslation(['settings', 'lists']);
  const legendId = useId();
  const save = useUpdateSecurityPolicy();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SecurityPolicy>({
    resolver: contractResolver(securityPolicySchema) as Resolver<SecurityPolicy>,
    defaultValues: policy,
  });
  const busy = form.formState.isSubmitting;
  const disabled = !canWrite || busy;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      form.reset(await save.mutateAsync(values));
      notify(t('security.saved'));
    } catch (error) {
      const fields = new Set(Object.keys(values));
      setFailure(
        placeFieldProblems(t, error, fields, (field, message) =>
          form.setError(field as FieldPath<SecurityPolicy>, { type: 'server', message }),
        ).failure,
      );
    }
  });

  return (
    <Stack component="form" noValidate onSubmit={(event) => void submit(event)} spacing={2}>
      {failure ? (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      ) : null}
      <Controller
        control={form.control}
        name="mfaPolicy"
        render={({ field }) => (
          <FormControl component="fieldset" disabled={disabled}>
            <FormLabel component="legend" id={legendId}>
              {t('security.mfa.label')}
            </FormLabel>
            <RadioGroup
              aria-labelledby={legendId}
              name={field.name}
              value={field.value}
              onChange={(event) => field.onChange(event.target.value)}
            >
              {MFA_POLICIES.map((value) => (
                <FormControlLabel
                  key={value}
                  value={value}
                  control={<Radio />}
                  label={t(POLICY_LABELS[value])}
                />
              ))}
            </RadioGroup>
            {field.value === 'everyone' && policy.mfaPolicy !== 'everyone' ? (
              <Alert severity="warning" sx={{ mt: 1 }}>
                {t('security.mfa.everyoneWarning')}
              </Alert>
            ) : null}
          </FormControl>
        )}
      />
      <Controller
        control={form.control}
        name="passwordMinLength"
        render={({ field, fieldState }) => (
          <TextField
            label={t('security.minLength')}
            type="number"
            name={field.name}
            inputRef={field.ref}
            value={Number.isNaN(field.value) ? '' : field.value}
            onChange={(event) =>
              field.onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))
            }
            onBlur={field.onBlur}
            disabled={disabled}
            required
            error={fieldState.error !== undefined}
            helperText={
              fieldState.error?.message
                ? translateFieldMessage(t, fieldState.error.message)
                : t('security.minLengthHint')
            }
            sx={{ maxWidth: 320 }}
            slotProps={{ htmlInput: { min: 8, max: 128, step: 1, inputMode: 'numeric' } }}
          />
        )}
      />
      <Stack>
        <Controller
          control={form.control}
          name="passwordRequireSpecial"
          render={({ field }) => (
            <PolicySwitch
              checked={field.value}
              onChange={field.onChange}
              label={t('security.requireSpecial')}
              disabled={disabled}
            />
          )}
        />
        <Controller
          control={form.control}
          name="passwordRefuseCommon"
          render={({ field }) => (
            <PolicySwitch
              checked={field.value}
              onChange={field.onChange}
              label={t('security.refuseCommon')}
              disabled={disabled}
            />
          )}
        />
      </Stack>
      {canWrite ? (
        <div>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('security.save')}
          </Button>
        </div>
      ) : null}
    </Stack>
  );
}
