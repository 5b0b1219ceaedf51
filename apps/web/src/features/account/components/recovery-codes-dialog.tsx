import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { RecoveryCodesList } from '../../../components/recovery-codes-list';

/**
 * Ten recovery codes, the one time they are shown: the server keeps only their hashes. Copy
 * and Download keep them; only "I have saved them" closes the dialog (not a click beside it
 * or Escape), so they are not lost by a slip, and the caller then forgets them.
 */
export function RecoveryCodesDialog(props: { codes: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation('account');
  const titleId = useId();
  return (
    <Dialog
      open
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 520 } }}
    >
      <DialogTitle id={titleId}>{t('recoveryCodes.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('recoveryCodes.warning')}
        </Alert>
        <RecoveryCodesList codes={props.codes} />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={props.onClose}>
          {t('recoveryCodes.saved')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
