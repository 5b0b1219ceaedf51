import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { User } from '@tc/contract/users';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useResendInvitation } from '../api/resend-invitation';
import { describeFailure } from '../../../lib/problem-text';

/**
 * Shown in the view and edit dialogs of a user who has not set a password yet: the
 * invitation may have been lost or expired, so an administrator can send a fresh one. The
 * outcome is confirmed here, in the dialog: while a modal is open the page's notices are
 * hidden from assistive technology.
 */
export function InvitationNotice({ user, canResend }: { user: User; canResend: boolean }) {
  const { t } = useTranslation(['users', 'lists']);
  const resend = useResendInvitation();
  const failure = resend.error;
  const severity = resend.isSuccess ? 'success' : failure ? 'error' : 'info';
  const message = resend.isSuccess
    ? t('invitationSent', { email: user.email })
    : failure
      ? failure instanceof ApiError
        ? describeFailure(t, failure)
        : t('lists:networkError')
      : t('invitationOpen');
  return (
    <Alert
      severity={severity}
      sx={{ mb: 1 }}
      action={
        canResend && !resend.isSuccess ? (
          <Button
            color="inherit"
            size="small"
            onClick={() => resend.mutate(user.id)}
            disabled={resend.isPending}
          >
            {t('resendInvitation')}
          </Button>
        ) : undefined
      }
    >
      {message}
    </Alert>
  );
}
