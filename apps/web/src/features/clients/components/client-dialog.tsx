import type { Client, ClientCreate } from '@tc/contract/clients';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CrudDialog,
  dialogLabels,
  type DialogMode,
} from '../../../components/entity-list/crud-dialog';
import { useClientSave } from '../api/clients';
import { clientDefaults, clientFormSchema, foldItemProblems, type ClientForm } from '../form-state';
import { ClientFields } from './client-fields';
import { QuickStartPanel } from './quick-start-panel';
import { RotateSecret } from './rotate-secret';
import { SecretDialog, type ShownSecret } from './secret-dialog';

/**
 * Add, edit, view or delete an application. A save that made a secret (a confidential client
 * created, or a public one turned confidential) is followed by the secret, shown this once,
 * in place of the form. Viewing and editing a saved client offer its quick start.
 */
export function ClientDialog(props: { mode: DialogMode; row?: Client; onClose: () => void }) {
  const { t } = useTranslation(['clients', 'lists']);
  const { mode, row } = props;
  const save = useClientSave(mode, row?.id);
  // Set by the save, read when the form closes right after it (the same event, no re-render).
  const madeSecret = useRef<ShownSecret | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const schema = useMemo(() => clientFormSchema(mode === 'add' ? 'add' : 'edit'), [mode]);

  if (secret) return <SecretDialog {...secret} onClose={props.onClose} />;

  const confirm = async (values: ClientCreate) => {
    try {
      const saved = await save.mutateAsync(values);
      if (saved?.clientSecret) {
        madeSecret.current = { clientId: saved.clientId, secret: saved.clientSecret };
      }
    } catch (error) {
      throw foldItemProblems(error, values);
    }
  };

  return (
    <CrudDialog<ClientForm, ClientCreate>
      mode={mode}
      onClose={() => (madeSecret.current ? setSecret(madeSecret.current) : props.onClose())}
      {...dialogLabels(t, mode)}
      width={800}
      schema={schema}
      defaultValues={clientDefaults(row)}
      onConfirm={confirm}
      successMessage={t(mode === 'delete' ? 'lists:deleted' : 'lists:saved')}
      deleteQuestion={t('deleteQuestion', { name: row?.name ?? '' })}
    >
      {({ control }, disabled) => (
        <>
          <ClientFields
            control={control}
            row={row}
            disabled={disabled}
            autoFocus={mode === 'add'}
          />
          {mode === 'edit' && row?.type === 'confidential' ? <RotateSecret client={row} /> : null}
          {row ? <QuickStartPanel client={row} /> : null}
        </>
      )}
    </CrudDialog>
  );
}
