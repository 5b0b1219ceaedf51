import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

/** Active or inactive, in the UI language. */
export function StatusChip({ status }: { status: 'active' | 'inactive' }) {
  const { t } = useTranslation('lists');
  return (
    <Chip
      size="small"
      label={t(status)}
      color={status === 'active' ? 'success' : 'default'}
      variant="outlined"
    />
  );
}
