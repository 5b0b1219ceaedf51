import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';

/** The codes as a text file, one a line, named so the user finds it again. */
export function downloadRecoveryCodes(codes: readonly string[], fileName: string) {
  const file = new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' });
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * Ten recovery codes, the one time they are shown: the server keeps only their hashes. Copy
 * and Download keep them; only "I have saved them" closes the dialog (not a click beside it
 * or Escape), so they are not lost by a slip, and the caller then forgets them.
 */
export function RecoveryCodesDialog(props: { codes: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation(['account', 'lists']);
  const titleId = useId();
  const listId = useId();
  const text = props.codes.join('\n');
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
        <Box
          component="ol"
          id={listId}
          aria-label={t('recoveryCodes.list')}
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' },
            columnGap: 4,
            rowGap: 1,
            m: 0,
            p: 2,
            pl: 5,
            borderRadius: 1,
            bgcolor: 'action.hover',
            fontFamily: 'monospace',
            fontSize: '1rem',
          }}
        >
          {props.codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </Box>
        <Stack direction="row" sx={{ mt: 2, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Button
            size="small"
            variant="outlined"
            startIcon={<DownloadIcon />}
            onClick={() => downloadRecoveryCodes(props.codes, t('recoveryCodes.fileName'))}
          >
            {t('recoveryCodes.download')}
          </Button>
          <CopyButton text={text} label={t('recoveryCodes.copy')} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={props.onClose}>
          {t('recoveryCodes.saved')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
