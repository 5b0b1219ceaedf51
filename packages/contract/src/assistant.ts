import { z } from 'zod';
import { envelope } from './problem';
import { API_BASE_PATH } from './route';
import { multilineText } from './text';

/**
 * The AI assistant. The browser sends the whole conversation, which it keeps in
 * memory only (it may hold anything its user typed); the server adds its own instructions, calls the
 * OpenAI-compatible provider and streams the answer back.
 */
/** Streamed (server-sent events), so registered by hand rather than from the route table. */
export const ASSISTANT_CHAT_PATH = `${API_BASE_PATH}/assistant/chat`;

/** Shown as the assistant's message when the provider fails; the earlier client's wording. */
export const ASSISTANT_ERROR_MESSAGE = 'Error: Unable to process your request at the moment.';

export const MAX_CHAT_MESSAGE_LENGTH = 4000;
export const MAX_CHAT_MESSAGES = 50;

export const chatMessageSchema = z
  .object({
    role: z.enum(['user', 'assistant'], { error: 'assistant.role_invalid' }),
    content: multilineText({ error: 'assistant.message_required' })
      .trim()
      .min(1, 'assistant.message_required')
      .max(MAX_CHAT_MESSAGE_LENGTH, 'assistant.message_too_long'),
  })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** `POST /assistant/chat`: the conversation so far, ending with the user's new question. */
export const chatRequestSchema = z
  .object({
    messages: z
      .array(chatMessageSchema)
      .min(1, 'assistant.message_required')
      .max(MAX_CHAT_MESSAGES, 'assistant.chat_too_long')
      .refine((messages) => messages.at(-1)?.role === 'user', 'assistant.last_message_yours'),
  })
  .meta({ id: 'ChatRequest' });
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/**
 * The answer of `POST /assistant/chat` is `text/event-stream`; each event's `data:` line is
 * one JSON chunk, read with fetch (EventSource cannot POST):
 * - `{"delta":"…"}`: the next piece of the answer, to append as it arrives;
 * - `{"done":true}`: the answer is complete;
 * - `{"error":"Error: Unable to process your request at the moment."}` (sent as
 *   `event: error`): the provider failed; nothing follows.
 * Failures before the stream starts are problem+json: 400 empty or too long messages,
 * 401, 429 with Retry-After (per user), 503 when the assistant is not configured.
 */
export const chatChunkSchema = z
  .union([
    z.object({ delta: z.string() }),
    z.object({ done: z.literal(true) }),
    z.object({ error: z.string() }),
  ])
  .meta({ id: 'ChatChunk' });
export type ChatChunk = z.infer<typeof chatChunkSchema>;

/** `GET /assistant`: whether the server has a provider, so the widget can say so plainly. */
export const assistantStatusSchema = z
  .object({ configured: z.boolean() })
  .meta({ id: 'AssistantStatus' });
export type AssistantStatus = z.infer<typeof assistantStatusSchema>;
export const assistantStatusResponseSchema = envelope(assistantStatusSchema);
