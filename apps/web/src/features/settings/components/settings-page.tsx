import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../../components/section-card';
import { useCan } from '../../../lib/permissions';
import { describeFailure } from '../../../lib/problem-text';
import { useProvisioning } from '../api/provisioning';
import { useSecurityPolicy } from '../api/security-policy';
import { ProvisioningForm } from './provisioning-form';
import { SecurityPolicyForm } from './security-policy-form';

/**
 * The tenant's settings: everyone holding tenant:read sees them, only tenant:write changes
 * them (the server checks both). Two sections: the sign-in security policy, and how an
 * identity system provisions users over SCIM.
 */
export default function SettingsPage() {
  const { t } = useTranslation(['settings', 'lists']);
  const canWrite = useCan('tenant:write');
  const policy = useSecurityPolicy();
  const provisioning = useProvisioning();
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Typography component="h1" variant="h4">
        {t('title')}
      </Typography>
      {canWrite ? null : <Alert severity="info">{t('readOnly')}</Alert>}
      <SectionCard title={t('security.heading')} intro={t('security.intro')}>
        {policy.isPending ? <LinearProgress aria-label={t('loading')} /> : null}
        {policy.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void policy.refetch()}>
                {t('lists:retry')}
              </Button>
            }
          >
            {t('loadFailed', { message: describeFailure(t, policy.error) })}
          </Alert>
        ) : null}
        {policy.isSuccess ? <SecurityPolicyForm policy={policy.data} canWrite={canWrite} /> : null}
      </SectionCard>
      <SectionCard title={t('provisioning.heading')} intro={t('provisioning.intro')}>
        {provisioning.isPending ? <LinearProgress aria-label={t('loading')} /> : null}
        {provisioning.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void provisioning.refetch()}>
                {t('lists:retry')}
              </Button>
            }
          >
            {t('loadFailed', { message: describeFailure(t, provisioning.error) })}
          </Alert>
        ) : null}
        {provisioning.isSuccess ? (
          <ProvisioningForm settings={provisioning.data} canWrite={canWrite} />
        ) : null}
      </SectionCard>
    </Stack>
  );
}
