import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Client } from '@tc/contract/clients';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { getRealm } from '../../../lib/tenant-store';
import { useSignedInRealm } from '../api/clients';
import { discoveryUrl, issuerUrl, quickStartSnippet } from '../quick-start';
import { CopyButton } from '../../../components/copy-button';

/** A value to paste elsewhere: read-only, selected whole on focus, with its copy button. */
function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('clients');
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
      <TextField
        label={label}
        value={value}
        fullWidth
        margin="dense"
        size="small"
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
        onFocus={(event) => event.target.select()}
      />
      <CopyButton text={value} label={t('copyThis', { what: label })} />
    </Stack>
  );
}

function QuickStartContent({ client }: { client: Client }) {
  const { t } = useTranslation('clients');
  const codeId = useId();
  // The signed-in user's realm; until it is known, the tenant this console was opened for.
  const realm = useSignedInRealm() ?? getRealm() ?? '';
  const issuer = issuerUrl(window.location.origin, realm);
  const snippet = quickStartSnippet(issuer, client);
  return (
    <Stack spacing={1}>
      <CopyField label={t('issuer')} value={issuer} />
      <CopyField label={t('discovery')} value={discoveryUrl(issuer)} />
      <Typography id={codeId} component="h4" variant="subtitle2" sx={{ pt: 1 }}>
        {t('snippet')}
      </Typography>
      {client.type === 'confidential' ? (
        <Typography variant="body2" color="text.secondary">
          {t('snippetSecret')}
        </Typography>
      ) : null}
      {/* Focusable, so the keyboard can scroll a long line into view. */}
      <Box
        component="pre"
        role="region"
        aria-labelledby={codeId}
        tabIndex={0}
        sx={{
          m: 0,
          p: 1.5,
          overflowX: 'auto',
          fontSize: 13,
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        <code>{snippet}</code>
      </Box>
      <Box>
        <CopyButton text={snippet} label={t('copyThis', { what: t('snippet') })} />
      </Box>
    </Stack>
  );
}

/**
 * How to connect an application to this client: the tenant's issuer and discovery addresses,
 * and openid-client code for its grants. Collapsed at first; its content (and the question for
 * the realm) is made when it is opened.
 */
export function QuickStartPanel({ client }: { client: Client }) {
  const { t } = useTranslation('clients');
  return (
    <Accordion
      variant="outlined"
      disableGutters
      sx={{ mt: 2 }}
      // The summary is a level-3 heading already (MUI's heading slot).
      slotProps={{ transition: { unmountOnExit: true } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography component="span" variant="subtitle1">
          {t('quickStart')}
        </Typography>
      </AccordionSummary>
      <AccordionDetails>
        <QuickStartContent client={client} />
      </AccordionDetails>
    </Accordion>
  );
}
