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

/**
 * An endpoint's signing secret, the one time it is shown (at creation, after a rotation): the
 * console never gets it again. Closed only by "Done", not by a click beside it.
 */
export function SecretDialog(props: { url: string; secret: string; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
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
          label={t('secretLabel', { url: props.url })}
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
