import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Placeholder until the screen lands. */
export default function AuditLogPage() {
  const { t } = useTranslation('auditLog');
  return <Typography variant="h1">{t('title')}</Typography>;
}
