import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useClipboardCopy } from '../lib/use-clipboard-copy';

/**
 * Copies a text to the clipboard and says so beside the button (a live region: a screen
 * reader hears it, a notice would be hidden behind the dialog). Without a clipboard (an
 * insecure page, a refusal) it asks the user to copy by hand.
 */
export function CopyButton(props: { text: string; label: string }) {
  const { t } = useTranslation('lists');
  const { outcome, copy } = useClipboardCopy(props.text);
  return (
    <Box component="span" sx={{ flexShrink: 0 }}>
      <Button
        size="small"
        variant="outlined"
        startIcon={outcome === 'copied' ? <CheckIcon /> : <ContentCopyIcon />}
        onClick={() => void copy()}
        sx={{ whiteSpace: 'nowrap' }}
      >
        {props.label}
      </Button>
      <Typography
        component="span"
        variant="body2"
        role="status"
        color={outcome === 'copyFailed' ? 'error' : 'text.secondary'}
        sx={{ ml: 1 }}
      >
        {outcome ? t(outcome) : null}
      </Typography>
    </Box>
  );
}
