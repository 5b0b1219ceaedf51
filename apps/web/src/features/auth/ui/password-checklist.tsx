import { passwordChecklist } from '@tc/contract/password-rules';
import { useTranslation } from 'react-i18next';

/** Live, informational checklist of Set new password; each line says whether it is met. */
export function PasswordChecklist({ password, confirm }: { password: string; confirm: string }) {
  const { t } = useTranslation();
  return (
    <ul className="auth-checklist" aria-label={t('password.checklist')}>
      {passwordChecklist(password, confirm).map((item) => (
        <li key={item.id} data-met={item.met}>
          <span aria-hidden="true">{item.met ? '✓' : '○'}</span>
          <span>
            {t(`password.check.${item.id}`)}
            <span className="auth-visually-hidden">
              {' '}
              ({item.met ? t('password.met') : t('password.notMet')})
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
