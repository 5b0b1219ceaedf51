import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { webhookCreateSchema, type Webhook, type WebhookCreate } from '@tc/contract/webhooks';
import { useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CrudDialog,
  dialogLabels,
  type DialogMode,
} from '../../../components/entity-list/crud-dialog';
import { TextInput } from '../../../components/form/form-fields';
import { useWebhookSave } from '../api/webhooks';
import { EventTypesField, useSubscribable } from './event-types-field';
import { SecretDialog } from './secret-dialog';
import { webhookDefaults, type WebhookForm } from './webhook-form';

/**
 * Add, edit, view or delete an endpoint. A create is followed by the signing secret, shown
 * this once, in place of the form.
 */
export function WebhookDialog(props: { mode: DialogMode; row?: Webhook; onClose: () => void }) {
  const { t } = useTranslation(['webhooks', 'lists']);
  const { mode, row } = props;
  const save = useWebhookSave(mode, row?.id);
  const subscribable = useSubscribable();
  // Set by the save, read when the form closes right after it (the same event).
  const made = useRef<{ url: string; secret: string } | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  if (secret) return <SecretDialog {...secret} onClose={props.onClose} />;

  const confirm = async (values: WebhookCreate) => {
    const saved = await save.mutateAsync(values);
    const secret = (saved as { secret?: string } | undefined)?.secret;
    if (saved && secret) made.current = { url: saved.url, secret };
  };

  return (
    <CrudDialog<WebhookForm, WebhookCreate>
      mode={mode}
      onClose={() => (made.current ? setSecret(made.current) : props.onClose())}
      {...dialogLabels(t, mode)}
      width={600}
      schema={webhookCreateSchema}
      defaultValues={webhookDefaults(row, subscribable.may('*'))}
      onConfirm={confirm}
      successMessage={t(mode === 'delete' ? 'lists:deleted' : 'lists:saved')}
      deleteQuestion={t('deleteQuestion', { url: row?.url ?? '' })}
    >
      {({ control }, disabled) => (
        <>
          <TextInput
            control={control}
            name="url"
            label={t('url')}
            required
            disabled={disabled}
            autoFocus={mode === 'add'}
            placeholder="https://example.com/webhooks"
            helperText={t('urlHint')}
          />
          <TextInput
            control={control}
            name="description"
            label={t('description')}
            disabled={disabled}
            multiline
          />
          <EventTypesField control={control} disabled={disabled} />
          <Controller
            control={control}
            name="enabled"
            render={({ field }) => (
              <FormControlLabel
                label={t('enabled')}
                disabled={disabled}
                control={
                  <Switch
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                    slotProps={{ input: { ref: field.ref } }}
                  />
                }
              />
            )}
          />
        </>
      )}
    </CrudDialog>
  );
}
