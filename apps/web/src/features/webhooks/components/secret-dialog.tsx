import { useTranslation } from 'react-i18next';
import { SecretOnceDialog } from '../../../components/secret-once-dialog';

/**
 * An endpoint's signing secret, the one time it is shown (at creation, after a rotation): the
 * console never gets it again.
 */
export function SecretDialog(props: { url: string; secret: string; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  const texts = {
    title: t('secretTitle'),
    warning: t('secretWarning'),
    label: t('secretLabel', { url: props.url }),
    copy: t('copySecret'),
    done: t('done'),
  };
  return <SecretOnceDialog secret={props.secret} texts={texts} onClose={props.onClose} />;
}
