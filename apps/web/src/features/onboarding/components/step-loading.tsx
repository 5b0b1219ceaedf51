import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/problem-text';

/** While a step's saved row or choices load: placeholders; when that fails: the reason and retry. */
export function StepLoading({
  query,
}: {
  query: { isError: boolean; error: unknown; refetch: () => unknown };
}) {
  const { t } = useTranslation(['onboarding', 'lists']);
  if (query.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('lists:retry')}
          </Button>
        }
      >
        {t('loadFailed', { message: describeFailure(t, query.error) })}
      </Alert>
    );
  }
  return (
    <Stack spacing={2} aria-busy="true" aria-label={t('loading')} role="status">
      <Skeleton variant="text" width="30%" />
      <Skeleton variant="text" width="60%" height={48} />
      <Skeleton variant="rounded" height={56} />
      <Skeleton variant="rounded" height={56} />
    </Stack>
  );
}
