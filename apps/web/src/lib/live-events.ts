import { EVENTS_PATH, RELOAD_EVENT, type ChangeEvent } from '@tc/contract/events';
import { authRoutes } from '@tc/contract/routes/auth';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { fetchRoute } from './api';
import { affectedBy, entityKeys, type EntityName } from './entity-api';
import { getAccessToken } from './session';

const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;
const entities = new Set<string>(Object.keys(affectedBy));

/**
 * Keeps the signed-in console in step with other administrators: each change
 * event refreshes the lists that show the changed entity. EventSource reconnects by itself
 * after a network drop; when the server closes the stream (the access token expired) it
 * does not, so this opens a new one with a fresh token, resuming after the last event seen.
 */
export function useLiveEvents(enabled: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let source: EventSource | null = null;
    let lastEventId = '';
    let retryMs = RETRY_MIN_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const refresh = (entity: string) => {
      const names = entities.has(entity) ? affectedBy[entity as EntityName] : [];
      for (const name of names) void client.invalidateQueries({ queryKey: entityKeys.all(name) });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
    };

    const open = () => {
      const token = getAccessToken();
      if (!token || stopped) return;
      const query = new URLSearchParams({ access_token: token });
      if (lastEventId) query.set('lastEventId', lastEventId);
      source = new EventSource(`${EVENTS_PATH}?${query.toString()}`);
      source.onopen = () => {
        retryMs = RETRY_MIN_MS;
      };
      source.onmessage = (message) => {
        if (message.lastEventId) lastEventId = message.lastEventId;
        try {
          refresh((JSON.parse(message.data as string) as ChangeEvent).entity);
        } catch {
          // A malformed event changes nothing; the next one refreshes as usual.
        }
      };
      source.addEventListener(RELOAD_EVENT, () => {
        for (const name of entities) void client.invalidateQueries({ queryKey: [name] });
        void client.invalidateQueries({ queryKey: ['dashboard'] });
      });
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED) return;
        source = null;
        timer = setTimeout(reopen, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      };
    };

    // Any authenticated call renews an expired access token (one refresh, api-client).
    const reopen = () => {
      fetchRoute(authRoutes.me).then(open, open);
    };

    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [client, enabled]);
}
