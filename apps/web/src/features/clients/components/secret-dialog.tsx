import { useTranslation } from 'react-i18next';
import { SecretOnceDialog } from '../../../components/secret-once-dialog';

export interface ShownSecret {
  clientId: string;
  secret: string;
}

/**
 * A client secret, the one time it is shown: the server keeps only its digest, so a lost one
 * is replaced by rotating.
 */
export function SecretDialog(props: ShownSecret & { onClose: () => void }) {
  const { t } = useTranslation('clients');
  const texts = {
    title: t('secretTitle'),
    warning: t('secretWarning'),
    label: t('secretLabel', { clientId: props.clientId }),
    copy: t('copySecret'),
    done: t('done'),
  };
  return <SecretOnceDialog secret={props.secret} texts={texts} onClose={props.onClose} />;
}
