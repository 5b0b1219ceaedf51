import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassDisabledIcon from '@mui/icons-material/HourglassDisabled';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Chip from '@mui/material/Chip';
import type { MailQueueStatus } from '@tc/contract/mail-queue';
import { useTranslation } from 'react-i18next';

const icons = {
  dead: <ErrorOutlineIcon />,
  expired: <HourglassDisabledIcon />,
  pending: <ScheduleIcon />,
} as const;

/**
 * Dead, Expired or Retrying. Only dead is in the error colour: it needs someone; the others
 * stay neutral (an outlined chip in a light colour would fall below text contrast).
 */
export function MailStatusChip({ status }: { status: MailQueueStatus }) {
  const { t } = useTranslation('mailQueue');
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={icons[status]}
      label={t(`status.${status}`)}
      color={status === 'dead' ? 'error' : 'default'}
    />
  );
}
