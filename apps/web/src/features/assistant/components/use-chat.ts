import {
  MAX_CHAT_MESSAGE_LENGTH,
  MAX_CHAT_MESSAGES,
  type AssistantStatus,
  type ChatMessage,
} from '@tc/contract/assistant';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { streamChat } from '../api/chat';
import { assistantStatusKey } from '../api/get-assistant-status';

export interface ChatEntry {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  /** Said by the widget itself (a failure, a rate limit), not by the model: never sent back. */
  notice?: boolean;
}

/** Without Retry-After, a minute: the server's rate-limit window. */
const DEFAULT_RETRY_SECONDS = 60;

/**
 * What the server receives: the conversation without the widget's own notices, at most as
 * many and as long messages as the contract accepts (older ones are dropped first).
 */
export function toConversation(entries: ChatEntry[]): ChatMessage[] {
  return entries
    .filter((entry) => !entry.notice && entry.content.trim() !== '')
    .map(({ role, content }) => ({ role, content: content.slice(0, MAX_CHAT_MESSAGE_LENGTH) }))
    .slice(-MAX_CHAT_MESSAGES);
}

function failureText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError && error.status === 429) {
    return t('chat.rateLimited', { count: error.retryAfter ?? DEFAULT_RETRY_SECONDS });
  }
  if (error instanceof ApiError && error.status === 503) return t('chat.notConfigured');
  // The earlier client's chat failure message, for a provider failure and anything else that went wrong.
  return t('chat.error');
}

/**
 * The conversation of the chat widget, kept in memory only: it
 * outlives closing the box, not a reload. One answer at a time, streamed into the last entry.
 */
export function useChat() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [streaming, setStreaming] = useState(false);
  const nextId = useRef(0);
  const running = useRef<AbortController | null>(null);

  // Signing out unmounts the layout: the answer in progress stops with it.
  useEffect(() => () => running.current?.abort(), []);

  const send = useCallback(
    async (text: string): Promise<boolean> => {
      const content = text.trim();
      if (!content || running.current) return false;
      const question: ChatEntry = { id: nextId.current++, role: 'user', content };
      const answerId = nextId.current++;
      const conversation = toConversation([...entries, question]);
      setEntries((list) => [...list, question, { id: answerId, role: 'assistant', content: '' }]);
      const update = (change: (entry: ChatEntry) => ChatEntry) =>
        setEntries((list) => list.map((entry) => (entry.id === answerId ? change(entry) : entry)));

      const controller = new AbortController();
      running.current = controller;
      setStreaming(true);
      try {
        await streamChat(
          conversation,
          (delta) => update((entry) => ({ ...entry, content: entry.content + delta })),
          controller.signal,
        );
      } catch (error) {
        if (controller.signal.aborted) return true;
        if (error instanceof ApiError && error.status === 503) {
          queryClient.setQueryData<AssistantStatus>(assistantStatusKey, { configured: false });
        }
        const notice: ChatEntry = {
          id: nextId.current++,
          role: 'assistant',
          content: failureText(error, t),
          notice: true,
        };
        // A half-written answer stays visible; the notice follows it.
        setEntries((list) => {
          const answer = list.find((entry) => entry.id === answerId);
          const rest = answer?.content ? list : list.filter((entry) => entry.id !== answerId);
          return [...rest, notice];
        });
      } finally {
        if (running.current === controller) {
          running.current = null;
          setStreaming(false);
        }
      }
      return true;
    },
    [entries, queryClient, t],
  );

  return { entries, streaming, send };
}
