import {
  ASSISTANT_CHAT_PATH,
  chatChunkSchema,
  type ChatChunk,
  type ChatMessage,
} from '@tc/contract/assistant';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { apiStream } from '../../../lib/api-client';

/** One server-sent event: its `event:` name (default "message") and its joined `data:` lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * The events of a text/event-stream body as it arrives. eventsource-parser splits the lines
 * (LF, CRLF, CR, also across chunks), joins `data:` lines, skips comments and drops an event the
 * stream ends before closing; TextDecoderStream keeps a character split across chunks whole.
 */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  // TypeScript's DOM types give TextDecoderStream a BufferSource input, wider than the bytes
  // a fetch body yields; the cast only narrows it back.
  const decoder = new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;
  const reader = body.pipeThrough(decoder).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield { event: value.event ?? 'message', data: value.data };
    }
  } finally {
    // Stopping early (the answer is complete, or failed) lets go of the connection.
    await reader.cancel().catch(() => undefined);
  }
}

/** The assistant's chunks (@tc/contract/assistant ChatChunk); malformed data is a failure. */
export async function* readChatChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatChunk> {
  for await (const { data } of parseEventStream(body)) {
    yield chatChunkSchema.parse(JSON.parse(data));
  }
}

/** The provider failed, or the answer broke off: the widget shows its error message. */
export class ChatStreamError extends Error {}

/**
 * Sends the conversation to `POST /assistant/chat` and hands each piece of the answer to
 * `onDelta` as it arrives. Resolves when the answer is complete; throws an ApiError when the
 * request is refused (400, 401, 429, 503) and a ChatStreamError when the answer fails midway.
 */
export async function streamChat(
  messages: ChatMessage[],
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await apiStream(ASSISTANT_CHAT_PATH, {
    method: 'POST',
    body: { messages },
    signal,
  });
  if (!response.body) throw new ChatStreamError('The answer has no body.');
  try {
    for await (const chunk of readChatChunks(response.body)) {
      if ('delta' in chunk) onDelta(chunk.delta);
      else if ('error' in chunk) throw new ChatStreamError(chunk.error);
      else return;
    }
  } catch (error) {
    if (error instanceof ChatStreamError || signal?.aborted) throw error;
    throw new ChatStreamError(error instanceof Error ? error.message : String(error));
  }
  throw new ChatStreamError('The answer ended before it was complete.');
}
