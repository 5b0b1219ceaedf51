import { useTranslation } from 'react-i18next';
import { useClipboardCopy } from '../../../lib/use-clipboard-copy';
import { saveRecoveryCodes } from '../../../lib/save-file';
import { Button } from './controls';

/**
 * Copies a text and says so beside the button (a live region); without a clipboard (an
 * insecure page, a refusal) it asks the user to copy by hand.
 */
export function CopyButton(props: { text: string; label: string }) {
  const { t } = useTranslation('lists');
  const { outcome, copy } = useClipboardCopy(props.text);
  return (
    <span>
      <Button variant="outlined" small onClick={() => void copy()}>
        {props.label}
      </Button>{' '}
      <span role="status" className="auth-field-message">
        {outcome ? t(outcome) : null}
      </span>
    </span>
  );
}

/**
 * Recovery codes the one time they are shown (the server keeps only their hashes): the list,
 * and Download and Copy to keep them. Texts of the `second-factor` namespace (useExtraTexts).
 */
export function RecoveryCodesList(props: { codes: readonly string[] }) {
  const { t } = useTranslation('second-factor');
  return (
    <>
      <ul className="auth-codes" aria-label={t('recoveryCodes.list')}>
        {props.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="auth-actions">
        <Button
          variant="outlined"
          small
          onClick={() => saveRecoveryCodes(props.codes, t('recoveryCodes.fileName'))}
        >
          {t('recoveryCodes.download')}
        </Button>
        <CopyButton text={props.codes.join('\n')} label={t('recoveryCodes.copy')} />
      </div>
    </>
  );
}
