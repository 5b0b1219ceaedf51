import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditAction } from '@tc/contract/audit';
import type { User } from '@tc/contract/users';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Option } from '../../../components/form/form-fields';
import { RemoteAutocomplete } from '../../../components/form/remote-autocomplete';
import { useCan } from '../../../lib/permissions';
import { isReversed, type AuditFilterValues } from './use-audit-filters';

const ALL = 'all';

const actorOption = (user: User): Option => ({
  value: user.id,
  label: user.email,
  detail: `${user.firstName} ${user.lastName}`.trim(),
});

/**
 * The actor: a type-ahead over the tenant's users, searched on the server. It needs
 * users:read; without it the filter is not offered, as there would be nobody to choose from.
 */
function ActorPicker({
  actorId,
  onChange,
}: {
  actorId: string | undefined;
  onChange: (actorId: string | undefined) => void;
}) {
  const { t } = useTranslation('auditLog');
  const { control, setValue } = useForm<{ actorId: string }>({
    defaultValues: { actorId: actorId ?? '' },
  });
  const chosen = useWatch({ control, name: 'actorId' });
  // The address leads: going back or opening a link sets the field.
  useEffect(() => setValue('actorId', actorId ?? ''), [actorId, setValue]);
  useEffect(() => {
    if ((chosen || undefined) !== actorId) onChange(chosen || undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a choice in the field
  }, [chosen]);
  return (
    <Box sx={{ minWidth: 240, '& .MuiFormControl-root': { my: 0 } }}>
      <RemoteAutocomplete
        control={control}
        name="actorId"
        label={t('actor')}
        entity="users"
        sortField="email"
        toOption={actorOption}
        placeholder={t('anyActor')}
      />
    </Box>
  );
}

/** Actor, entity, action and the date range, beside the list's search. */
export function AuditFilters({
  values,
  onChange,
}: {
  values: AuditFilterValues;
  onChange: (patch: AuditFilterValues) => void;
}) {
  const { t } = useTranslation('auditLog');
  const canPickUsers = useCan('users:read');
  const reversed = isReversed(values);
  return (
    <>
      {canPickUsers ? (
        <ActorPicker actorId={values.actorId} onChange={(actorId) => onChange({ actorId })} />
      ) : null}
      <TextField
        select
        size="small"
        label={t('entity')}
        value={values.entity ?? ALL}
        onChange={(event) =>
          onChange({ entity: event.target.value === ALL ? undefined : event.target.value })
        }
        sx={{ minWidth: 160 }}
      >
        <MenuItem value={ALL}>{t('all')}</MenuItem>
        {/* An entity named in the address but not known here stays choosable. */}
        {[
          ...AUDIT_ENTITIES,
          ...(values.entity && !isKnown(values.entity) ? [values.entity] : []),
        ].map((entity) => (
          <MenuItem key={entity} value={entity}>
            {t(`entities.${entity}`, { defaultValue: entity })}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('action')}
        value={values.action ?? ALL}
        onChange={(event) =>
          onChange({
            action: event.target.value === ALL ? undefined : (event.target.value as AuditAction),
          })
        }
        sx={{ minWidth: 140 }}
      >
        <MenuItem value={ALL}>{t('all')}</MenuItem>
        {AUDIT_ACTIONS.map((action) => (
          <MenuItem key={action} value={action}>
            {t(`actions.${action}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        size="small"
        label={t('fromDate')}
        value={values.fromDate ?? ''}
        onChange={(event) => onChange({ fromDate: event.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        type="date"
        size="small"
        label={t('toDate')}
        value={values.toDate ?? ''}
        onChange={(event) => onChange({ toDate: event.target.value || undefined })}
        error={reversed}
        helperText={reversed ? t('rangeReversed') : undefined}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </>
  );
}

const isKnown = (entity: string) => (AUDIT_ENTITIES as readonly string[]).includes(entity);
