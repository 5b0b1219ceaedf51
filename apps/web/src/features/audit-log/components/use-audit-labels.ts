import type { AuditEntry } from '@tc/contract/audit';
import { useTranslation } from 'react-i18next';

/**
 * The words of an entry in the interface language: a known entity's and action's name (an
 * unknown one as the server names it), and the actor (the system, or a user who is gone).
 */
export function useAuditLabels() {
  const { t } = useTranslation('auditLog');
  return {
    entity: (entity: string) => t(`entities.${entity}`, { defaultValue: entity }),
    action: (action: string) => t(`actions.${action}`, { defaultValue: action }),
    actor: (entry: Pick<AuditEntry, 'actorId' | 'actorEmail'>) =>
      entry.actorEmail ?? (entry.actorId ? t('actorGone') : t('system')),
  };
}
