import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';

export interface ShownSecret {
  clientId: string;
  secret: string;
}

/**
 * A client secret, the one time it is shown: the server keeps only its digest, so it cannot
 * be shown again (a lost one is replaced by rotating). Closed only by "Done", not by a click
 * beside it, so it is not lost by accident.
 */
export function SecretDialog(props: ShownSecret & { onClose: () => void }) {
  const { t } = useTranslation('clients');
  const titleId = useId();
  return (
    <Dialog
      open
      onClose={(_event, reason) => reason !== 'backdropClick' && props.onClose()}
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 560 } }}
    >
      <DialogTitle id={titleId}>{t('secretTitle')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('secretWarning')}
        </Alert>
        <TextField
          label={t('secretLabel', { clientId: props.clientId })}
          value={props.secret}
          fullWidth
          margin="dense"
          slotProps={{
            htmlInput: { readOnly: true, spellCheck: false, sx: { fontFamily: 'monospace' } },
          }}
          onFocus={(event) => event.target.select()}
        />
        <CopyButton text={props.secret} label={t('copySecret')} />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={props.onClose}>
          {t('done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
