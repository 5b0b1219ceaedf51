import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Placeholder until the screen lands. */
export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  return <Typography variant="h1">{t('title')}</Typography>;
}
