import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { Client } from '@tc/contract/clients';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/problem-text';
import { useRotateSecret } from '../api/clients';
import { SecretDialog } from './secret-dialog';

/** Asks before rotating: the current secret stops working at once. */
function ConfirmRotate(props: {
  client: Client;
  onClose: () => void;
  onRotated: (s: string) => void;
}) {
  const { t } = useTranslation(['clients', 'lists']);
  const titleId = useId();
  const rotate = useRotateSecret(props.client.id);
  const confirm = async () => {
    try {
      props.onRotated(await rotate.mutateAsync());
    } catch {
      // The mutation keeps the failure; it is shown above the question.
    }
  };
  return (
    <Dialog
      open
      onClose={rotate.isPending ? undefined : props.onClose}
      aria-labelledby={titleId}
      fullWidth
      sx={{ '& .MuiDialog-paper': { maxWidth: 400 } }}
    >
      <DialogTitle id={titleId}>{t('rotateTitle')}</DialogTitle>
      <DialogContent>
        {rotate.error ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {describeFailure(t, rotate.error)}
          </Alert>
        ) : null}
        <DialogContentText>{t('rotateQuestion', { name: props.client.name })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={rotate.isPending}>
          {t('lists:cancel')}
        </Button>
        <Button
          variant="contained"
          color="warning"
          onClick={() => void confirm()}
          disabled={rotate.isPending}
        >
          {t('rotateConfirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The secret of a confidential client in its edit dialog: it was shown once, when it was
 * made; "Rotate secret" makes a new one for a lost or leaked one, shown once as well.
 */
export function RotateSecret({ client }: { client: Client }) {
  const { t } = useTranslation('clients');
  const [step, setStep] = useState<'idle' | 'confirm' | { secret: string }>('idle');
  return (
    <Box sx={{ mt: 2 }}>
      <Typography component="h3" variant="subtitle1">
        {t('secretTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('secretText')}
      </Typography>
      <Button variant="outlined" color="warning" onClick={() => setStep('confirm')}>
        {t('rotate')}
      </Button>
      {step === 'confirm' ? (
        <ConfirmRotate
          client={client}
          onClose={() => setStep('idle')}
          onRotated={(secret) => setStep({ secret })}
        />
      ) : null}
      {typeof step === 'object' ? (
        <SecretDialog
          clientId={client.clientId}
          secret={step.secret}
          onClose={() => setStep('idle')}
        />
      ) : null}
    </Box>
  );
}
