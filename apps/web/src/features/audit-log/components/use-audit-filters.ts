import { AUDIT_ACTIONS, type AuditAction } from '@tc/contract/audit';
import { useSearchParams } from 'react-router';

/** The screen's filters as the address keeps them: dates as `YYYY-MM-DD`, days of the viewer. */
export interface AuditFilterValues {
  actorId?: string;
  entity?: string;
  action?: AuditAction;
  fromDate?: string;
  toDate?: string;
}

const KEYS = ['actorId', 'entity', 'action', 'fromDate', 'toDate'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isAction = (value: string | null): value is AuditAction =>
  (AUDIT_ACTIONS as readonly (string | null)[]).includes(value);

/** Only well-formed values count: a hand-edited address never sends what the server refuses. */
function read(params: URLSearchParams): AuditFilterValues {
  const text = (key: string, valid: (value: string) => boolean) => {
    const value = params.get(key);
    return value && valid(value) ? value : undefined;
  };
  const action = params.get('action');
  return {
    actorId: text('actorId', (value) => UUID.test(value)),
    entity: text('entity', (value) => value.length <= 100),
    action: isAction(action) ? action : undefined,
    fromDate: text('fromDate', (value) => DATE.test(value)),
    toDate: text('toDate', (value) => DATE.test(value)),
  };
}

/** The start of a day of the viewer's calendar, as the instant the server compares with. */
export function startOfDay(date: string): string | undefined {
  const start = new Date(`${date}T00:00:00`);
  return Number.isNaN(start.getTime()) ? undefined : start.toISOString();
}

/** The start of the day after: the `to` date is shown inclusive, the server's `to` excludes. */
export function startOfNextDay(date: string): string | undefined {
  const start = new Date(`${date}T00:00:00`);
  if (Number.isNaN(start.getTime())) return undefined;
  start.setDate(start.getDate() + 1);
  return start.toISOString();
}

/** Whether the range ends before it starts: shown at the "to" field, and not sent. */
export const isReversed = ({ fromDate, toDate }: AuditFilterValues) =>
  Boolean(fromDate && toDate && toDate < fromDate);

/** The request's filter of the values: undefined ones are left out of the request. */
export function requestFilter(values: AuditFilterValues): Record<string, string | undefined> {
  const reversed = isReversed(values);
  return {
    actorId: values.actorId,
    entity: values.entity,
    action: values.action,
    from: values.fromDate && !reversed ? startOfDay(values.fromDate) : undefined,
    to: values.toDate && !reversed ? startOfNextDay(values.toDate) : undefined,
  };
}

/**
 * The filters, kept in the address beside page, sort and search (a link shows the same
 * entries); a changed filter starts on page 1, as a new search does.
 */
export function useAuditFilters(): [AuditFilterValues, (patch: AuditFilterValues) => void] {
  const [params, setParams] = useSearchParams();
  const values = read(params);
  const update = (patch: AuditFilterValues) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of KEYS) {
          if (!(key in patch)) continue;
          const value = patch[key];
          if (value) next.set(key, value);
          else next.delete(key);
        }
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  return [values, update];
}
