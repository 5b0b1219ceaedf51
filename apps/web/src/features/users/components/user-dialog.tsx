import Button from '@mui/material/Button';
import { userCreateSchema, userUpdateSchema, type User } from '@tc/contract/users';
import { useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CrudDialog,
  dialogLabels,
  type DialogMode,
} from '../../../components/entity-list/crud-dialog';
import { useDialogSave } from '../../../lib/entity-api';
import { InvitationNotice } from './invitation-notice';
import {
  AccessFields,
  DETAIL_FIELDS,
  DetailFields,
  InviteStep,
  type UserForm,
} from './user-fields';

type Form = UseFormReturn<UserForm, unknown, unknown>;

const detailFields: readonly string[] = DETAIL_FIELDS;

/** Where focus goes when a step is shown: the first field with a message, else the first field. */
function focusStep(container: HTMLElement | null) {
  const focusable = '[role="combobox"], input:not([tabindex="-1"]):not([type="hidden"])';
  const target =
    container?.querySelector<HTMLElement>('input[aria-invalid="true"]') ??
    container?.querySelector<HTMLElement>(focusable);
  target?.focus();
}

/**
 * Invite, edit, view or delete a user ("Invite users", "Edit User", "Delete User";
 * width 800). Inviting takes two steps, "Add Details" and "Who would you like to invite?";
 * a message on a field of the other step (e.g. the server's duplicate e-mail) shows that step
 * again, with everything typed kept.
 */
export function UserDialog(props: {
  mode: DialogMode;
  row?: User;
  /** The signed-in administrator's own row: never deactivated by themself. */
  own: boolean;
  canWrite: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['users', 'lists']);
  const { mode, row } = props;
  const stepped = mode === 'add';
  const [step, setStep] = useState<1 | 2>(1);
  const stepRef = useRef<HTMLDivElement>(null);
  const firstRender = useRef(true);
  const save = useDialogSave('users', mode, row?.id);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    focusStep(stepRef.current);
  }, [step]);

  const next = async (form: Form) => {
    if (await form.trigger([...DETAIL_FIELDS])) setStep(2);
  };

  const stepActions = (form: Form, busy: boolean) =>
    step === 1 ? (
      <Button variant="contained" onClick={() => void next(form)}>
        {t('next')}
      </Button>
    ) : (
      <>
        <Button onClick={() => setStep(1)} disabled={busy}>
          {t('back')}
        </Button>
        <Button type="submit" variant="contained" disabled={busy}>
          {t('save')}
        </Button>
      </>
    );

  const access = (form: Form, disabled: boolean) => (
    <AccessFields control={form.control} disabled={disabled} row={row} own={props.own} />
  );

  return (
    <CrudDialog<UserForm, unknown>
      mode={mode}
      onClose={props.onClose}
      {...dialogLabels(t, mode)}
      width={800}
      schema={mode === 'add' ? userCreateSchema : userUpdateSchema}
      defaultValues={{
        ...(row ? { id: row.id } : {}),
        firstName: row?.firstName ?? '',
        lastName: row?.lastName ?? '',
        email: row?.email ?? '',
        roleId: row?.roleId ?? '',
        status: row?.status ?? 'active',
      }}
      onConfirm={(values) => save.mutateAsync(values)}
      successMessage={t(
        mode === 'delete' ? 'lists:deleted' : mode === 'add' ? 'inviteSent' : 'lists:saved',
      )}
      deleteQuestion={t('deleteQuestion')}
      onFieldErrors={
        stepped
          ? (fields) => setStep(fields.some((field) => detailFields.includes(field)) ? 1 : 2)
          : undefined
      }
      actions={stepped ? stepActions : undefined}
    >
      {(form, disabled) =>
        stepped ? (
          <div ref={stepRef}>
            {step === 1 ? (
              <InviteStep step={1} heading={t('detailsHeading')} onEnter={() => void next(form)}>
                <DetailFields control={form.control} disabled={disabled} autoFocus />
              </InviteStep>
            ) : (
              <InviteStep step={2} heading={t('inviteHeading')}>
                {access(form, disabled)}
              </InviteStep>
            )}
          </div>
        ) : (
          <>
            {row?.invited ? <InvitationNotice user={row} canResend={props.canWrite} /> : null}
            <DetailFields control={form.control} disabled={disabled} autoFocus={false} />
            {access(form, disabled)}
          </>
        )
      }
    </CrudDialog>
  );
}
