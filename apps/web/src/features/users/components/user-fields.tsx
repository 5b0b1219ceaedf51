import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Role } from '@tc/contract/roles';
import type { User, userUpdateSchema } from '@tc/contract/users';
import { useId, type KeyboardEvent, type ReactNode } from 'react';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { StatusInput, TextInput, type Option } from '../../../components/form/form-fields';
import { RemoteAutocomplete } from '../../../components/form/remote-autocomplete';

/** One form shape for add and edit; the contract's create or update schema decides what is sent. */
export type UserForm = z.input<typeof userUpdateSchema>;
// The payload type is the create or the update schema's, by mode: the dialog sends it as is.
type FormControl = Control<UserForm, unknown, unknown>;

/** The fields of the invite dialog's first step, "Add Details". */
export const DETAIL_FIELDS = ['firstName', 'lastName', 'email'] as const;

/** First name, last name and e-mail: side by side where the 800 px dialog has room. */
export function DetailFields(props: {
  control: FormControl;
  disabled: boolean;
  autoFocus: boolean;
}) {
  const { t } = useTranslation('users');
  const { control, disabled } = props;
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ columnGap: 2 }}>
        <TextInput
          control={control}
          name="firstName"
          label={t('firstName')}
          required
          autoFocus={props.autoFocus}
          autoComplete="off"
          disabled={disabled}
        />
        <TextInput
          control={control}
          name="lastName"
          label={t('lastName')}
          required
          disabled={disabled}
        />
      </Stack>
      <TextInput
        control={control}
        name="email"
        type="email"
        label={t('email')}
        required
        disabled={disabled}
      />
    </>
  );
}

/**
 * The role, chosen from the tenant's roles (a user holds exactly one) by typing part of its
 * name, and the status. The user's current role shows by the name its row carries.
 */
export function AccessFields(props: {
  control: FormControl;
  disabled: boolean;
  row?: User;
  /** The signed-in administrator's own row: the server refuses to deactivate it. */
  own: boolean;
}) {
  const { t } = useTranslation(['users', 'lists']);
  const { control, disabled, row } = props;
  const roleOption = (role: Role): Option => ({
    value: role.id,
    label: role.status === 'inactive' ? t('inactiveRole', { name: role.name }) : role.name,
  });
  return (
    <>
      <RemoteAutocomplete
        control={control}
        name="roleId"
        label={t('role')}
        required
        entity="roles"
        sortField="name"
        toOption={roleOption}
        known={row ? [{ value: row.roleId, label: row.role }] : []}
        placeholder={t('lists:choose')}
        disabled={disabled}
      />
      <StatusInput
        control={control}
        name="status"
        label={t('status')}
        disabled={disabled || props.own}
        helperText={props.own ? t('ownAccount') : undefined}
      />
    </>
  );
}

/**
 * One step of the invite dialog: "Step 1/2" above its heading, the fields grouped
 * under the heading for screen readers. Enter in a field goes on like the step's button.
 */
export function InviteStep(props: {
  step: 1 | 2;
  heading: string;
  onEnter?: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('users');
  const headingId = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (!props.onEnter || event.key !== 'Enter') return;
    if (!(event.target instanceof HTMLInputElement)) return;
    // Stops the form's implicit submission: step 1 is not the whole payload yet.
    event.preventDefault();
    props.onEnter();
  };
  return (
    <Box role="group" aria-labelledby={headingId} onKeyDown={onKeyDown}>
      <Typography variant="overline" component="p" color="text.secondary">
        {t('step', { step: props.step, total: 2 })}
      </Typography>
      <Typography id={headingId} component="h3" variant="h6" sx={{ mb: 1 }}>
        {props.heading}
      </Typography>
      {props.children}
    </Box>
  );
}
