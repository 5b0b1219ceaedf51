import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { CopyButton } from './copy-button';

/** The texts of a secret's one showing, in the caller's namespace. */
export interface SecretOnceTexts {
  title: string;
  warning: string;
  label: string;
  copy: string;
  done: string;
}

/**
 * A secret the one time it is shown (an application's secret, a webhook's signing secret):
 * the server cannot show it again. Closed only by "Done", not by a click beside it, so it is
 * not lost by accident.
 */
export function SecretOnceDialog(props: {
  secret: string;
  texts: SecretOnceTexts;
  onClose: () => void;
}) {
  const titleId = useId();
  const { texts } = props;
  return (
    <Dialog
      open
      onClose={(_event, reason) => reason !== 'backdropClick' && props.onClose()}
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 560 } }}
    >
      <DialogTitle id={titleId}>{texts.title}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {texts.warning}
        </Alert>
        <TextField
          label={texts.label}
          value={props.secret}
          fullWidth
          margin="dense"
          slotProps={{
            htmlInput: { readOnly: true, spellCheck: false, sx: { fontFamily: 'monospace' } },
          }}
          onFocus={(event) => event.target.select()}
        />
        <CopyButton text={props.secret} label={texts.copy} />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={props.onClose}>
          {texts.done}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
