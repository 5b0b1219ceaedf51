import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { useSaveProgress } from '../api/save-progress';
import { describeFailure } from '../../../lib/problem-text';

/**
 * Completion. Step 3 has recorded it already; "Go to dashboard" records
 * it again (once is kept) for a wizard that reached this page another way.
 */
export function CompletePage() {
  const { t } = useTranslation('onboarding');
  const navigate = useNavigate();
  const save = useSaveProgress();
  const finish = () =>
    save.mutate({ step: 'complete' }, { onSuccess: () => void navigate(paths.home) });

  return (
    <Box sx={{ textAlign: 'center', py: 2 }}>
      <CheckCircleIcon color="success" sx={{ fontSize: 64, mb: 1 }} aria-hidden />
      <Box>
        <Chip label={t('completed')} color="success" sx={{ mb: 2 }} />
      </Box>
      <Typography component="h1" variant="h3" sx={{ mb: 2, fontWeight: 700 }}>
        {t('completeTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4, maxWidth: 520, mx: 'auto' }}>
        {t('completeText')}
      </Typography>
      {save.isError ? (
        <Alert severity="error" sx={{ mb: 2, textAlign: 'left' }}>
          {describeFailure(t, save.error)}
        </Alert>
      ) : null}
      <Button variant="contained" size="large" onClick={finish} disabled={save.isPending}>
        {t('goToDashboard')}
      </Button>
    </Box>
  );
}
