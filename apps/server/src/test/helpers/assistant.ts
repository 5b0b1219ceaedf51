import type { ChatChunk, ChatMessage } from '@tc/contract/assistant';
import { api } from '../fixtures';
import type { TestServer } from '../harness';
import type { RecordedRequest } from '../openai-mock';

export interface ChatAnswer {
  status: number;
  headers: Headers;
  /** The stream's chunks in order, with the event name of each (`error` or undefined). */
  chunks: (ChatChunk & { event?: string })[];
  /** When each chunk arrived (ms since the request was sent). */
  arrivals: number[];
  /** The joined deltas. */
  text: string;
  /** The problem body of an answer that is not a stream. */
  problem?: { status: number; detail?: string; errors?: Record<string, string> };
}

/** Sends a chat request and reads the event stream as a browser would, chunk by chunk. */
export async function chat(
  server: TestServer,
  token: string | undefined,
  messages: ChatMessage[] | unknown,
): Promise<ChatAnswer> {
  const started = Date.now();
  const response = await api(server, '/assistant/chat', token, {
    method: 'POST',
    body: JSON.stringify({ messages }),
  });
  const answer: ChatAnswer = {
    status: response.status,
    headers: response.headers,
    chunks: [],
    arrivals: [],
    text: '',
  };
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    answer.problem = (await response.json()) as ChatAnswer['problem'];
    return answer;
  }
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += decoder.decode(read.value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data === undefined) continue;
      answer.chunks.push({ ...(JSON.parse(data) as ChatChunk), ...(event ? { event } : {}) });
      answer.arrivals.push(Date.now() - started);
    }
  }
  answer.text = answer.chunks.map((c) => ('delta' in c ? c.delta : '')).join('');
  return answer;
}

export const ask = (content: string): ChatMessage[] => [{ role: 'user', content }];

/** The tool results a recorded provider request carried back to the model, parsed. */
export function toolResults(request: RecordedRequest | undefined): unknown[] {
  return (request?.body.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(message.content ?? 'null') as unknown);
}
