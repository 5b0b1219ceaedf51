import type { Onboarding } from '@tc/contract/onboarding';
import { createRoleSchema, type Role } from '@tc/contract/roles';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { paths } from '../../../lib/paths';
import { StatusInput, TextInput } from '../../../components/form/form-fields';
import { useSavedEntity } from '../api/get-saved-entity';
import { StepLoading } from './step-loading';
import { StepForm } from './step-form';
import { useStepSave } from './use-step-save';

type RoleForm = z.input<typeof createRoleSchema>;

/** Step 1/3 "Create Your First Role": name and status. */
export function RoleStep({ progress }: { progress: Onboarding }) {
  const { t } = useTranslation(['onboarding', 'lists']);
  const saved = useSavedEntity<Role>('roles', progress.roleId);
  const role = saved.data ?? null;
  const onSave = useStepSave({
    entity: 'roles',
    savedId: role?.id ?? null,
    progress: (roleId) => ({ step: 'second-step', roleId }),
    next: paths.secondStep,
  });
  if (saved.isLoading || saved.isError) return <StepLoading query={saved} />;

  return (
    <StepForm<RoleForm, z.output<typeof createRoleSchema>>
      step={1}
      title={t('role.title')}
      schema={createRoleSchema}
      defaultValues={{ name: role?.name ?? '', status: role?.status ?? 'active' }}
      back={paths.welcome}
      onSave={onSave}
    >
      {({ control }, disabled) => (
        <>
          <TextInput
            control={control}
            name="name"
            label={t('role.name')}
            placeholder={t('role.namePlaceholder')}
            required
            autoFocus
            disabled={disabled || role?.system}
          />
          <StatusInput
            control={control}
            name="status"
            label={t('status')}
            disabled={disabled || role?.system}
          />
        </>
      )}
    </StepForm>
  );
}
