import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { changePasswordRequestSchema, type ChangePasswordRequest } from '@tc/contract/security';
import { useState } from 'react';
import {
  Controller,
  useForm,
  useWatch,
  type Control,
  type FieldPath,
  type Resolver,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordChecklist } from '../../../components/password-checklist';
import { PasswordField } from '../../../components/password-field';
import { SectionCard } from '../../../components/section-card';
import { contractResolver } from '../../../lib/form-resolver';
import { placeFieldProblems, translateFieldMessage } from '../../../lib/problem-text';
import { useChangePassword } from '../api/change-password';

interface PasswordForm extends ChangePasswordRequest {
  confirm: string;
}

const emptyForm: PasswordForm = { currentPassword: '', newPassword: '', confirm: '' };

/** The confirmation is the console's own check: the API takes the new password once. */
const passwordFormSchema = changePasswordRequestSchema.extend({
  confirm: changePasswordRequestSchema.shape.newPassword,
});

function PasswordInput(props: {
  control: Control<PasswordForm>;
  name: FieldPath<PasswordForm>;
  label: string;
  autoComplete: 'current-password' | 'new-password';
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <PasswordField
          label={props.label}
          name={field.name}
          value={field.value}
          onChange={field.onChange}
          autoComplete={props.autoComplete}
          required
          error={fieldState.error !== undefined}
          helperText={
            fieldState.error?.message
              ? translateFieldMessage(t, fieldState.error.message)
              : undefined
          }
        />
      )}
    />
  );
}

/**
 * Change password: the current one proves it is the user, the new one meets the tenant's
 * rules (checked by the server; the checklist shows the usual ones as the user types). Every
 * other session ends, which the success note says: a stolen session does not outlive it.
 */
export function PasswordSection() {
  const { t } = useTranslation(['account', 'translation', 'lists']);
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const form = useForm<PasswordForm>({
    resolver: contractResolver(passwordFormSchema) as Resolver<PasswordForm>,
    defaultValues: emptyForm,
  });
  const [newPassword, confirm] = useWatch({
    control: form.control,
    name: ['newPassword', 'confirm'],
  });

  const submit = form.handleSubmit(async ({ currentPassword, newPassword, confirm }) => {
    setFailure(null);
    setChanged(false);
    if (newPassword !== confirm) {
      form.setError('confirm', { type: 'match', message: t('translation:password.mismatch') });
      return;
    }
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      form.reset(emptyForm);
      setChanged(true);
    } catch (error) {
      const fields = new Set(['currentPassword', 'newPassword']);
      setFailure(
        placeFieldProblems(t, error, fields, (field, message) =>
          form.setError(field as FieldPath<PasswordForm>, { type: 'server', message }),
        ).failure,
      );
    }
  });

  return (
    <SectionCard title={t('password.heading')}>
      <Stack component="form" noValidate onSubmit={(event) => void submit(event)}>
        <PasswordInput
          control={form.control}
          name="currentPassword"
          label={t('password.current')}
          autoComplete="current-password"
        />
        <PasswordInput
          control={form.control}
          name="newPassword"
          label={t('password.new')}
          autoComplete="new-password"
        />
        <PasswordInput
          control={form.control}
          name="confirm"
          label={t('password.confirm')}
          autoComplete="new-password"
        />
        <PasswordChecklist password={newPassword} confirm={confirm} />
        {failure ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        ) : null}
        {changed ? (
          <Alert severity="success" role="status" sx={{ mb: 2 }}>
            {t('password.changed')}
          </Alert>
        ) : null}
        <div>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            {t('password.submit')}
          </Button>
        </div>
      </Stack>
    </SectionCard>
  );
}
