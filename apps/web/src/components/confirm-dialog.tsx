import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../lib/problem-text';

export interface ConfirmDialogProps {
  title: string;
  /** What happens on confirming, and what cannot be undone. */
  children: ReactNode;
  confirmLabel: string;
  /** A red confirm button: for what takes something away (sign out, remove, reset). */
  destructive?: boolean;
  /** The action; the dialog closes when it resolves and shows its failure when it rejects. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

/**
 * Asks before an action that cannot be undone. A failure stays in the dialog, translated from
 * the problem's code, so the user knows nothing happened and may try again; while the action
 * runs the dialog cannot be closed, so its outcome is never lost.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useTranslation('lists');
  const titleId = useId();
  const textId = useId();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (error) {
      setFailure(describeFailure(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      aria-describedby={textId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 480 } }}
    >
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>
        {failure ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        ) : null}
        <DialogContentText id={textId} component="div">
          {props.children}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button
          variant="contained"
          color={props.destructive ? 'error' : 'primary'}
          disabled={busy}
          onClick={() => void confirm()}
        >
          {props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
