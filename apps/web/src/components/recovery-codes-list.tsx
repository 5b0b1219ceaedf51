import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { saveRecoveryCodes } from '../lib/save-file';
import { CopyButton } from './copy-button';

/**
 * Recovery codes the one time they are shown (the server keeps only their hashes), wherever
 * a second factor is set up: the list, and Download and Copy to keep them. What follows
 * ("I have saved them", going on with the sign-in) is the caller's.
 */
export function RecoveryCodesList(props: { codes: readonly string[] }) {
  const { t } = useTranslation('second-factor');
  return (
    <>
      <Box
        component="ul"
        aria-label={t('recoveryCodes.list')}
        sx={{
          display: 'grid',
          // Two columns where a code fits whole in each, else one: a code never breaks.
          gridTemplateColumns: 'repeat(auto-fit, minmax(11.5em, 1fr))',
          whiteSpace: 'nowrap',
          gap: 1,
          listStyle: 'none',
          p: 2,
          m: 0,
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'monospace',
          fontSize: '0.875rem',
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
          onClick={() => saveRecoveryCodes(props.codes, t('recoveryCodes.fileName'))}
        >
          {t('recoveryCodes.download')}
        </Button>
        {/* Last in the row: its "Copied" note appears beside it without moving the others. */}
        <CopyButton text={props.codes.join('\n')} label={t('recoveryCodes.copy')} />
      </Stack>
    </>
  );
}
