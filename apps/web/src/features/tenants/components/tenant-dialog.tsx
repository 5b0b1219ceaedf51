import Typography from '@mui/material/Typography';
import {
  tenantCreateSchema,
  tenantUpdateSchema,
  type Tenant,
  type TenantCreate,
} from '@tc/contract/tenants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  CrudDialog,
  dialogLabels,
  type DialogMode,
} from '../../../components/entity-list/crud-dialog';
import { TextInput } from '../../../components/form/form-fields';
import { ApiError } from '../../../lib/api-client';
import { deleteEntity, useEntityMutation } from '../../../lib/entity-api';
import { LogoUpload } from '../../../components/logo-upload';
import type { LogoChange } from '../../../lib/logo-upload';
import { LogoNotSaved, useSaveTenant } from '../api/save-tenant';
import { OptionalEmailInput, SwitchInput } from './tenant-fields';
import { describeFailure } from '../../../lib/problem-text';

/** One form shape for add and edit; the mode's contract schema decides what is sent. */
type TenantForm = Omit<z.input<typeof tenantCreateSchema>, 'id'> & { id?: string };

/**
 * Add, edit, view or delete a tenant ("Add New Tenant", "Edit Tenant", "Delete
 * Tenant"; width 400). A new tenant is created first and its logo uploaded after, since the
 * upload needs its id; if only the logo fails, the next try updates the tenant just created.
 */
export function TenantDialog(props: { mode: DialogMode; row?: Tenant; onClose: () => void }) {
  const { t } = useTranslation(['tenants', 'lists']);
  const { mode, row } = props;
  const [logo, setLogo] = useState<LogoChange>({ kind: 'keep' });
  const [logoError, setLogoError] = useState<string>();
  // The tenant this dialog created when the logo upload after it failed.
  const [created, setCreated] = useState<Tenant>();
  const save = useSaveTenant();
  const remove = useEntityMutation('tenants', (id: string) => deleteEntity('tenants', id));

  const confirm = async (values: unknown) => {
    if (mode === 'delete') return remove.mutateAsync(row!.id);
    setLogoError(undefined);
    try {
      return await save({ values: values as TenantCreate, id: created?.id ?? row?.id, logo });
    } catch (error) {
      if (!(error instanceof LogoNotSaved)) throw error;
      setCreated(mode === 'add' ? error.tenant : undefined);
      const reason = error.reason;
      const problem =
        reason instanceof ApiError ? describeFailure(t, reason) : t('lists:networkError');
      setLogoError(problem);
      throw new ApiError(
        reason instanceof ApiError ? reason.status : 0,
        t('logoNotSaved', { problem }),
      );
    }
  };

  return (
    <CrudDialog<TenantForm, unknown>
      mode={mode}
      onClose={props.onClose}
      {...dialogLabels(t, mode)}
      // Editing a tenant confirms with "Update tenant", not the generic "Save changes".
      confirmLabel={mode === 'edit' ? t('update') : dialogLabels(t, mode).confirmLabel}
      width={400}
      schema={mode === 'add' ? tenantCreateSchema : tenantUpdateSchema}
      defaultValues={{
        ...(row ? { id: row.id } : {}),
        name: row?.name ?? '',
        domain: row?.domain ?? '',
        allowSignup: row?.allowSignup ?? false,
        ...(mode === 'add' ? { adminEmail: undefined } : {}),
      }}
      onConfirm={confirm}
      successMessage={t(mode === 'delete' ? 'lists:deleted' : 'lists:saved')}
      deleteQuestion={
        <>
          {t('deleteQuestion')}
          <Typography component="span" variant="body2" sx={{ display: 'block', mt: 1 }}>
            {t('deleteWarning', { name: row?.name ?? '' })}
          </Typography>
        </>
      }
    >
      {({ control }, disabled) => (
        <>
          <LogoUpload
            currentUrl={created?.logoUrl ?? row?.logoUrl ?? null}
            value={logo}
            onChange={(change) => {
              setLogoError(undefined);
              setLogo(change);
            }}
            error={logoError}
            disabled={disabled}
          />
          <TextInput
            control={control}
            name="name"
            label={t('name')}
            required
            autoFocus={mode === 'add'}
            disabled={disabled}
            helperText={t('nameHint')}
          />
          <TextInput
            control={control}
            name="domain"
            label={t('domain')}
            required
            placeholder="acme.example.com"
            disabled={disabled}
            helperText={t('domainHint')}
          />
          <SwitchInput
            control={control}
            name="allowSignup"
            label={t('allowSignup')}
            disabled={disabled}
          />
          {mode === 'add' ? (
            <OptionalEmailInput
              control={control}
              name="adminEmail"
              label={t('adminEmail')}
              helperText={t(created ? 'adminInvited' : 'adminEmailHint')}
              disabled={disabled || created !== undefined}
            />
          ) : null}
        </>
      )}
    </CrudDialog>
  );
}
