import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { Onboarding } from '@tc/contract/onboarding';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { useSaveProgress, useSkipOnboarding } from '../api/save-progress';
import { describeFailure } from '../../../lib/problem-text';

/** The points of the Project Cockpit, shown as five numbered chips. */
const benefits = ['insights', 'decisions', 'performance', 'collaboration', 'trust'] as const;

/**
 * The welcome page: "Get started" begins the steps, "Skip" stops the
 * wizard from opening by itself. After completion it can be reopened: the steps then create
 * a new role, permission and user rather than editing the first ones.
 */
export function WelcomePage({ progress }: { progress: Onboarding | undefined }) {
  const { t } = useTranslation('onboarding');
  const navigate = useNavigate();
  const save = useSaveProgress();
  const skip = useSkipOnboarding();
  const [failure, setFailure] = useState<string | null>(null);
  const busy = save.isPending || skip.isPending;
  const fail = (error: unknown) => setFailure(describeFailure(t, error));

  const start = () => {
    setFailure(null);
    // A wizard already under way keeps its saved step (a reload resumes there).
    if (progress && !progress.completed && progress.step !== 'welcome') {
      void navigate(paths.firstStep);
      return;
    }
    const restart = progress?.completed ? { roleId: null, permissionId: null, userId: null } : {};
    save.mutate(
      { step: 'first-step', ...restart },
      { onSuccess: () => void navigate(paths.firstStep), onError: fail },
    );
  };

  const skipWizard = () => {
    setFailure(null);
    skip.mutate(undefined, { onSuccess: () => void navigate(paths.home), onError: fail });
  };

  return (
    <Box>
      <Chip label={t('tag')} color="primary" variant="outlined" sx={{ mb: 2 }} />
      <Typography component="h1" variant="h3" sx={{ mb: 2, fontWeight: 700 }}>
        {t('headline')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, fontSize: '1.125rem' }}>
        {t('text')}
      </Typography>
      <Box
        component="ol"
        aria-label={t('benefitsLabel')}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0, mb: 4 }}
      >
        {benefits.map((benefit, index) => (
          <li key={benefit}>
            <Chip
              avatar={<Avatar aria-hidden>{index + 1}</Avatar>}
              label={t(`benefits.${benefit}`)}
              variant="outlined"
            />
          </li>
        ))}
      </Box>
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 3, flexWrap: 'wrap' }}>
        <Button variant="contained" size="large" onClick={start} disabled={busy}>
          {t('getStarted')}
        </Button>
        <Link component="button" type="button" onClick={skipWizard} disabled={busy}>
          {t('skip')}
        </Link>
      </Box>
    </Box>
  );
}
