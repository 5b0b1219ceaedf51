import type { Onboarding } from '@tc/contract/onboarding';
import { createPermissionSchema, type Permission } from '@tc/contract/permissions-api';
import type { Role } from '@tc/contract/roles';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { paths } from '../../../lib/paths';
import { TextInput, type Option } from '../../../components/form/form-fields';
import { RemoteAutocomplete } from '../../../components/form/remote-autocomplete';
import { useSavedEntity } from '../api/get-saved-entity';
import { StepForm } from './step-form';
import { StepLoading } from './step-loading';
import { useStepSave } from './use-step-save';

type PermissionForm = z.input<typeof createPermissionSchema>;

const roleOption = (role: Role): Option => ({ value: role.id, label: role.name });

/**
 * Step 2/3 "Assign Permissions to Your Role": the permission's name and the roles holding it,
 * the role of step 1 chosen already (a permission may have several).
 */
export function PermissionStep({ progress }: { progress: Onboarding }) {
  const { t } = useTranslation(['onboarding', 'lists']);
  const saved = useSavedEntity<Permission>('permissions', progress.permissionId);
  const stepRole = useSavedEntity<Role>('roles', progress.roleId);
  const permission = saved.data ?? null;
  const onSave = useStepSave({
    entity: 'permissions',
    savedId: permission?.id ?? null,
    progress: (permissionId) => ({ step: 'third-step', permissionId }),
    next: paths.thirdStep,
  });
  if (saved.isLoading || saved.isError) return <StepLoading query={saved} />;
  if (stepRole.isLoading || stepRole.isError) return <StepLoading query={stepRole} />;

  // The role of step 1, unless it was deleted meanwhile; and the saved permission's roles.
  const role = stepRole.data ? roleOption(stepRole.data) : null;
  const known = [
    ...(role ? [role] : []),
    ...(permission?.roleIds ?? []).map((id, index) => ({
      value: id,
      label: permission!.roles[index]!,
    })),
  ];
  const preselected = role ? [role.value] : [];
  return (
    <StepForm<PermissionForm, z.output<typeof createPermissionSchema>>
      step={2}
      title={t('permission.title')}
      schema={createPermissionSchema}
      defaultValues={{ name: permission?.name ?? '', roleIds: permission?.roleIds ?? preselected }}
      back={paths.firstStep}
      onSave={onSave}
    >
      {({ control }, disabled) => (
        <>
          <TextInput
            control={control}
            name="name"
            label={t('permission.name')}
            placeholder={t('permission.namePlaceholder')}
            helperText={t('permission.nameHint')}
            required
            autoFocus
            disabled={disabled}
          />
          <RemoteAutocomplete
            control={control}
            name="roleIds"
            label={t('permission.roles')}
            multiple
            entity="roles"
            sortField="name"
            toOption={roleOption}
            known={known}
            placeholder={t('lists:choose')}
            required
            disabled={disabled}
          />
        </>
      )}
    </StepForm>
  );
}
