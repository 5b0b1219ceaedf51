import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/problem-text';

/** A section waiting for its data. */
export function SectionLoading() {
  const { t } = useTranslation('account');
  return <LinearProgress aria-label={t('loading')} />;
}

/** A section whose data did not arrive: what failed, in the interface language, and Retry. */
export function SectionLoadFailed(props: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation(['account', 'lists']);
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={props.onRetry}>
          {t('lists:retry')}
        </Button>
      }
    >
      {t('loadFailed', { message: describeFailure(t, props.error) })}
    </Alert>
  );
}
