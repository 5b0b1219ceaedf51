import { useTranslation } from 'react-i18next';
import { useAction } from '../api/use-action';
import { Alert, PrimaryButton, Progress } from '../ui/controls';
import { RecoveryCodesList } from '../ui/recovery-codes-list';
import { useExtraTexts } from '../ui/use-extra-texts';
import { stepFailureText } from './step-failure';

/**
 * The recovery codes of a new second factor, shown this once (only their hashes are kept):
 * copy or download them, then go on with the sign-in.
 */
export function RecoveryCodesStep(props: {
  codes: readonly string[];
  onContinue: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const go = useAction(props.onContinue);
  const texts = useExtraTexts(['second-factor', 'lists']);
  if (!texts) return <Progress label={t('layout.loading')} />;
  return (
    <>
      <p className="auth-text">{t('signInSteps.recoveryCodes.intro')}</p>
      <RecoveryCodesList codes={props.codes} />
      {go.isError ? <Alert severity="error">{stepFailureText(t, go.error, 'enrol')}</Alert> : null}
      <PrimaryButton
        busy={go.isPending}
        busyLabel={t('signInSteps.recoveryCodes.continuing')}
        onClick={() => go.run()}
      >
        {t('signInSteps.recoveryCodes.continue')}
      </PrimaryButton>
    </>
  );
}
