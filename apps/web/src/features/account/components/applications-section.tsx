import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { ApplicationConsent } from '@tc/contract/consents';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/notifications';
import { SectionCard } from '../../../components/section-card';
import { useDateTime } from '../../../lib/use-date-time';
import { useApplications, useWithdrawApplication } from '../api/applications';
import { SectionLoadFailed, SectionLoading } from './load-state';

/**
 * The applications the user allowed to use their account (consent): each with what it may
 * do and since when, and Withdraw (after a confirmation), which ends its tokens at once; its
 * next sign-in asks again.
 */
export function ApplicationsSection() {
  const { t } = useTranslation('account');
  const applications = useApplications();
  const withdraw = useWithdrawApplication();
  const dateTime = useDateTime();
  const [asking, setAsking] = useState<ApplicationConsent | null>(null);
  const mayDo = (application: ApplicationConsent) =>
    application.scopes.map((scope) => t(`applications.scope.${scope}`, scope)).join(', ');

  return (
    <SectionCard title={t('applications.heading')} intro={t('applications.intro')}>
      {applications.isPending ? <SectionLoading /> : null}
      {applications.isError ? (
        <SectionLoadFailed error={applications.error} onRetry={() => void applications.refetch()} />
      ) : null}
      {applications.isSuccess && applications.data.length === 0 ? (
        <Typography color="text.secondary">{t('applications.none')}</Typography>
      ) : null}
      {applications.isSuccess && applications.data.length > 0 ? (
        <List aria-label={t('applications.heading')}>
          {applications.data.map((application) => (
            <ListItem
              key={application.id}
              divider
              secondaryAction={
                <Button
                  size="small"
                  color="error"
                  aria-label={t('applications.withdrawNamed', { name: application.name })}
                  onClick={() => setAsking(application)}
                >
                  {t('applications.withdraw')}
                </Button>
              }
            >
              <ListItemText
                primary={application.name}
                secondary={t('applications.allowed', {
                  what: mayDo(application),
                  when: dateTime(application.grantedAt),
                })}
              />
            </ListItem>
          ))}
        </List>
      ) : null}

      {asking ? (
        <ConfirmDialog
          title={t('applications.withdrawTitle', { name: asking.name })}
          confirmLabel={t('applications.withdraw')}
          destructive
          onConfirm={async () => {
            await withdraw.mutateAsync(asking.id);
            notify(t('applications.withdrawn', { name: asking.name }));
          }}
          onClose={() => setAsking(null)}
        >
          {t('applications.withdrawText', { name: asking.name })}
        </ConfirmDialog>
      ) : null}
    </SectionCard>
  );
}
