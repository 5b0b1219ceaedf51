import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { passkeyNameSchema } from '@tc/contract/security';
import { useId, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TextInput } from '../../../components/form/form-fields';
import { contractResolver } from '../../../lib/form-resolver';
import { placeFieldProblems } from '../../../lib/problem-text';

const nameFormSchema = z.object({ name: passkeyNameSchema });

/**
 * The name of a passkey, asked before one is added (then the browser's own prompt follows)
 * and when one is renamed. `onSave` does the work; its failure stays in the dialog.
 */
export function PasskeyNameDialog(props: {
  title: string;
  intro?: string;
  initialName: string;
  saveLabel: string;
  onSave: (name: string) => Promise<unknown>;
  /** A failure that is no problem of the server's (the browser's prompt), in words. */
  describeError?: (error: unknown) => string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['account', 'lists']);
  const titleId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ name: string }>({
    resolver: contractResolver(nameFormSchema) as Resolver<{ name: string }>,
    defaultValues: { name: props.initialName },
  });
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async ({ name }) => {
    setFailure(null);
    try {
      await props.onSave(name);
      props.onClose();
    } catch (error) {
      const described = props.describeError?.(error);
      if (described) {
        setFailure(described);
        return;
      }
      setFailure(
        placeFieldProblems(t, error, new Set(['name']), (_field, message) =>
          form.setError('name', { type: 'server', message }),
        ).failure,
      );
    }
  });

  return (
    <Dialog
      open
      onClose={busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 440 } }}
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{props.title}</DialogTitle>
        <DialogContent>
          {failure ? (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          ) : null}
          {props.intro ? <DialogContentText>{props.intro}</DialogContentText> : null}
          <TextInput
            control={form.control}
            name="name"
            label={t('passkeys.name')}
            helperText={t('passkeys.nameHint')}
            disabled={busy}
            required
            autoFocus
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} disabled={busy}>
            {t('lists:cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {props.saveLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
