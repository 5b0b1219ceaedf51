import {
  ASSISTANT_CHAT_PATH,
  chatChunkSchema,
  type ChatChunk,
  type ChatMessage,
} from '@tc/contract/assistant';
import { apiStream } from '../../../lib/api-client';

/** One server-sent event: its `event:` name (default "message") and its joined `data:` lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Parses a text/event-stream body as it arrives (WHATWG HTML §9.2.6 "Interpreting an event
 * stream"): events end at a blank line; CRLF, LF and CR all end a line; `:` lines are comments;
 * several `data:` lines join with "\n"; events without data are not dispatched. A TextDecoder
 * in stream mode keeps a character split across two network chunks whole.
 */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];

  // Lines complete so far; a trailing "\r" may be half of a "\r\n", so it waits for more.
  function* lines(final: boolean): Generator<string> {
    for (;;) {
      const match = /\r\n|\n|\r/.exec(buffer);
      if (!match || (!final && match[0] === '\r' && match.index === buffer.length - 1)) return;
      const line = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      yield line;
    }
  }

  function* take(line: string): Generator<ServerSentEvent> {
    if (line === '') {
      if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
      event = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }

  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const line of lines(done)) yield* take(line);
      // An event not closed by a blank line when the stream ends is dropped, as the standard says.
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The assistant's chunks (@tc/contract/assistant ChatChunk); malformed data is a failure. */
export async function* readChatChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatChunk> {
  for await (const { data } of parseEventStream(body)) {
    yield chatChunkSchema.parse(JSON.parse(data));
  }
}

/** The provider failed, or the answer broke off: the widget shows the spec's error (§8). */
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
