import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import {
  unreadableSubscriptions,
  WEBHOOK_EVENT_READ_PERMISSIONS,
  WEBHOOK_SUBSCRIPTIONS,
} from '@tc/contract/webhooks';
import { useId } from 'react';
import { useController, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateFieldMessage } from '../../../lib/problem-text';
import { useSession } from '../../../lib/use-session';
import type { WebhookForm } from './webhook-form';

/** How a subscription reads: "All events", "All role events", or the event type itself. */
export function useSubscriptionLabel() {
  const { t } = useTranslation('webhooks');
  return (subscription: string) => {
    if (subscription === '*') return t('allEvents');
    if (subscription.endsWith('.*')) {
      return t('allOfGroup', { group: t(`groups.${subscription.slice(0, -2)}`) });
    }
    return subscription;
  };
}

/**
 * What the signed-in user may subscribe to: the server refuses events whose entity they may
 * not read, so the form does not offer them. `lacking` lists the read permissions missing.
 */
export function useSubscribable() {
  const permissions = useSession()?.permissions ?? [];
  const refused = new Set(unreadableSubscriptions(WEBHOOK_SUBSCRIPTIONS, permissions));
  const needed = new Set(Object.values(WEBHOOK_EVENT_READ_PERMISSIONS));
  return {
    may: (subscription: string) => !refused.has(subscription),
    lacking: [...needed].filter((permission) => !permissions.includes(permission)),
  };
}

/**
 * The event types an endpoint receives, chosen from the catalogue: everything, a group's
 * wildcard or single types, those the user may read (and any the endpoint already has, so they
 * can be taken off). A select with checkboxes (keyboard: arrows and space).
 */
export function EventTypesField(props: {
  control: Control<WebhookForm, unknown, unknown>;
  disabled: boolean;
}) {
  const { t } = useTranslation('webhooks');
  const labelId = useId();
  const helperId = useId();
  const label = useSubscriptionLabel();
  const { field, fieldState } = useController({ control: props.control, name: 'eventTypes' });
  const message = fieldState.error?.message;
  const subscribable = useSubscribable();
  const offered = WEBHOOK_SUBSCRIPTIONS.filter(
    (subscription) => subscribable.may(subscription) || field.value.includes(subscription),
  );
  return (
    <FormControl fullWidth margin="dense" required error={message !== undefined}>
      <InputLabel id={labelId}>{t('eventTypes')}</InputLabel>
      <Select
        multiple
        labelId={labelId}
        value={field.value}
        onChange={(event) => {
          const value = event.target.value;
          field.onChange(typeof value === 'string' ? value.split(',') : value);
        }}
        onBlur={field.onBlur}
        inputRef={field.ref}
        disabled={props.disabled}
        input={<OutlinedInput label={t('eventTypes')} />}
        aria-describedby={helperId}
        renderValue={(chosen) => (
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
            {chosen.map((value) => (
              <Chip key={value} size="small" label={label(value)} />
            ))}
          </Stack>
        )}
      >
        {offered.map((subscription) => (
          <MenuItem key={subscription} value={subscription}>
            <Checkbox checked={field.value.includes(subscription)} size="small" />
            <ListItemText primary={label(subscription)} />
          </MenuItem>
        ))}
      </Select>
      <FormHelperText id={helperId}>
        {message ? translateFieldMessage(t, message) : t('eventTypesHint')}
      </FormHelperText>
      {subscribable.lacking.length > 0 ? (
        <FormHelperText>
          {t('eventTypesLimited', { permissions: subscribable.lacking.join(', ') })}
        </FormHelperText>
      ) : null}
    </FormControl>
  );
}
