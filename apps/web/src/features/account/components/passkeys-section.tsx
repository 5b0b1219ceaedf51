import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { browserSupportsWebAuthn, WebAuthnError } from '@simplewebauthn/browser';
import type { Passkey } from '@tc/contract/security';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/notifications';
import { SectionCard } from '../../../components/section-card';
import { useDateTime } from '../../../lib/use-date-time';
import { useRegisterPasskey, useRemovePasskey, useRenamePasskey } from '../api/passkeys';
import { useSecondFactors } from '../api/second-factors';
import { SectionLoadFailed, SectionLoading } from './load-state';
import { PasskeyNameDialog } from './passkey-name-dialog';

type Editing = { kind: 'add' } | { kind: 'rename' | 'remove'; passkey: Passkey } | null;

/**
 * What the browser's prompt ended with, in words: a device that already holds one of this
 * account's passkeys, a cancel or time-out (NotAllowedError, which browsers also use for other
 * refusals), or another of WebAuthn's errors, named. Problems of the server are left to the
 * dialog, which translates their codes.
 */
function browserFailure(t: TFunction, error: unknown): string | null {
  if (!(error instanceof WebAuthnError)) {
    return error instanceof Error && error.name === 'NotAllowedError'
      ? t('passkeys.cancelled')
      : null;
  }
  if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return t('passkeys.duplicate');
  const cause = (error.cause as Error | undefined)?.name;
  if (error.code === 'ERROR_CEREMONY_ABORTED' || cause === 'NotAllowedError') {
    return t('passkeys.cancelled');
  }
  return t('passkeys.browserFailed', { message: error.message });
}

/** Passkeys: each with its name, when it was added and last used; add, rename, remove. */
export function PasskeysSection() {
  const { t } = useTranslation('account');
  const factors = useSecondFactors();
  return (
    <SectionCard title={t('passkeys.heading')} intro={t('passkeys.intro')}>
      {factors.isPending ? <SectionLoading /> : null}
      {factors.isError ? (
        <SectionLoadFailed error={factors.error} onRetry={() => void factors.refetch()} />
      ) : null}
      {factors.isSuccess ? <Passkeys passkeys={factors.data.passkeys} /> : null}
    </SectionCard>
  );
}

function Passkeys({ passkeys }: { passkeys: Passkey[] }) {
  const { t } = useTranslation(['account', 'lists']);
  const dateTime = useDateTime();
  const [editing, setEditing] = useState<Editing>(null);
  const register = useRegisterPasskey();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const supported = browserSupportsWebAuthn();
  const close = () => setEditing(null);

  return (
    <>
      {passkeys.length === 0 ? (
        <Typography color="text.secondary">{t('passkeys.empty')}</Typography>
      ) : (
        <List aria-label={t('passkeys.heading')} disablePadding>
          {passkeys.map((passkey) => (
            <ListItem
              key={passkey.id}
              divider
              disableGutters
              secondaryAction={
                <Stack direction="row" sx={{ gap: 1 }}>
                  <Button
                    size="small"
                    aria-label={t('passkeys.renameNamed', { name: passkey.name })}
                    onClick={() => setEditing({ kind: 'rename', passkey })}
                  >
                    {t('passkeys.rename')}
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    aria-label={t('passkeys.removeNamed', { name: passkey.name })}
                    onClick={() => setEditing({ kind: 'remove', passkey })}
                  >
                    {t('passkeys.remove')}
                  </Button>
                </Stack>
              }
              sx={{ pr: 24 }}
            >
              <ListItemText
                primary={passkey.name}
                secondary={t('passkeys.dates', {
                  created: dateTime(passkey.createdAt),
                  lastUsed: passkey.lastUsedAt ? dateTime(passkey.lastUsedAt) : t('passkeys.never'),
                })}
              />
            </ListItem>
          ))}
        </List>
      )}
      {supported ? null : <Alert severity="info">{t('passkeys.unsupported')}</Alert>}
      <div>
        <Button
          variant="contained"
          disabled={!supported}
          onClick={() => setEditing({ kind: 'add' })}
        >
          {t('passkeys.add')}
        </Button>
      </div>

      {editing?.kind === 'add' ? (
        <PasskeyNameDialog
          title={t('passkeys.addTitle')}
          intro={t('passkeys.addIntro')}
          initialName=""
          saveLabel={t('passkeys.create')}
          onSave={async (name) => {
            await register.mutateAsync(name);
            notify(t('passkeys.added'));
          }}
          describeError={(error) => browserFailure(t, error)}
          onClose={close}
        />
      ) : null}
      {editing?.kind === 'rename' ? (
        <PasskeyNameDialog
          title={t('passkeys.renameTitle')}
          initialName={editing.passkey.name}
          saveLabel={t('passkeys.saveName')}
          onSave={async (name) => {
            await rename.mutateAsync({ id: editing.passkey.id, name });
            notify(t('passkeys.renamed'));
          }}
          onClose={close}
        />
      ) : null}
      {editing?.kind === 'remove' ? (
        <ConfirmDialog
          title={t('passkeys.removeTitle')}
          confirmLabel={t('passkeys.removeConfirm')}
          destructive
          onConfirm={async () => {
            await remove.mutateAsync(editing.passkey.id);
            notify(t('passkeys.removed'));
          }}
          onClose={close}
        >
          {t('passkeys.removeText', { name: editing.passkey.name })}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
