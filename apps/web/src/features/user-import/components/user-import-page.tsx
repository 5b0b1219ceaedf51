import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Placeholder until the screen lands. */
export default function UserImportPage() {
  const { t } = useTranslation('userImport');
  return <Typography variant="h1">{t('title')}</Typography>;
}
