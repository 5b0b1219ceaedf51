import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Onboarding } from '@tc/contract/onboarding';
import type { Role } from '@tc/contract/roles';
import { userCreateSchema, type User } from '@tc/contract/users';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { paths } from '../../../lib/paths';
import { StatusInput, TextInput, type Option } from '../../../components/form/form-fields';
import { RemoteAutocomplete } from '../../../components/form/remote-autocomplete';
import { useSavedEntity } from '../api/get-saved-entity';
import { StepForm } from './step-form';
import { StepLoading } from './step-loading';
import { useStepSave } from './use-step-save';

type UserForm = z.input<typeof userCreateSchema>;

const roleOption = (role: Role): Option => ({ value: role.id, label: role.name });

/**
 * Step 3/3 "Create Your First User": invites the user with the chosen role and status;
 * saving it records the tenant's onboarding as completed.
 */
export function UserStep({ progress }: { progress: Onboarding }) {
  const { t } = useTranslation(['onboarding', 'lists']);
  const saved = useSavedEntity<User>('users', progress.userId);
  const stepRole = useSavedEntity<Role>('roles', progress.roleId);
  const user = saved.data ?? null;
  const onSave = useStepSave({
    entity: 'users',
    savedId: user?.id ?? null,
    progress: (userId) => ({ step: 'complete', userId }),
    next: paths.complete,
  });
  if (saved.isLoading || saved.isError) return <StepLoading query={saved} />;
  if (stepRole.isLoading || stepRole.isError) return <StepLoading query={stepRole} />;

  // The role of step 1, unless it was deleted meanwhile (the field must not hold an unknown id).
  const role = stepRole.data ? roleOption(stepRole.data) : null;
  const known = [
    ...(role ? [role] : []),
    ...(user ? [{ value: user.roleId, label: user.role }] : []),
  ];
  return (
    <StepForm<UserForm, z.output<typeof userCreateSchema>>
      step={3}
      title={t('user.title')}
      schema={userCreateSchema}
      defaultValues={{
        firstName: user?.firstName ?? '',
        lastName: user?.lastName ?? '',
        email: user?.email ?? '',
        roleId: user?.roleId ?? role?.value ?? '',
        status: user?.status ?? 'active',
      }}
      back={paths.secondStep}
      onSave={onSave}
    >
      {({ control }, disabled) => (
        <>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {t('user.intro')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ columnGap: 2 }}>
            <TextInput
              control={control}
              name="firstName"
              label={t('user.firstName')}
              required
              autoFocus
              disabled={disabled}
            />
            <TextInput
              control={control}
              name="lastName"
              label={t('user.lastName')}
              required
              disabled={disabled}
            />
          </Stack>
          <TextInput
            control={control}
            name="email"
            type="email"
            label={t('user.email')}
            required
            disabled={disabled}
          />
          <RemoteAutocomplete
            control={control}
            name="roleId"
            label={t('user.role')}
            required
            entity="roles"
            sortField="name"
            toOption={roleOption}
            known={known}
            placeholder={t('lists:choose')}
            disabled={disabled}
          />
          <StatusInput control={control} name="status" label={t('status')} disabled={disabled} />
        </>
      )}
    </StepForm>
  );
}
