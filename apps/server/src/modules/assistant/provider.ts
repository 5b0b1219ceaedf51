import { createParser } from 'eventsource-parser';
import { redactUrl } from '../../http/logging';

/**
 * A client of an OpenAI-compatible chat-completions API with `stream: true`: the answer comes
 * as server-sent events whose `data:` lines are JSON chunks, ended by `data: [DONE]`.
 * Plain fetch, no SDK.
 */

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ProviderMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ProviderSettings {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
}

export interface Completion {
  content: string;
  toolCalls: ToolCall[];
  finishReason: string | undefined;
}

/** The provider could not be reached or answered something unusable; `message` is for logs. */
export class ProviderError extends Error {}

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface Chunk {
  error?: { message?: string };
  choices?: {
    delta?: { content?: string | null; tool_calls?: ChunkToolCall[] };
    finish_reason?: string | null;
  }[];
}

/**
 * One streamed completion. Text is handed to `onDelta` as it arrives; tool calls arrive in
 * fragments keyed by `index` (name first, arguments in pieces) and are joined here.
 */
export async function streamCompletion(
  settings: ProviderSettings,
  body: { messages: ProviderMessage[]; tools?: ToolDefinition[] },
  onDelta: (text: string) => void,
  signal: AbortSignal,
): Promise<Completion> {
  const response = await post(settings, body, signal);
  const result: Completion = { content: '', toolCalls: [], finishReason: undefined };
  const calls = new Map<number, ToolCall>();
  let done = false;
  for await (const data of dataEvents(response.body!, signal)) {
    if (data === '[DONE]') {
      done = true;
      break;
    }
    const chunk = parseChunk(settings, data);
    if (chunk.error) {
      throw new ProviderError(masked(settings, `provider error: ${chunk.error.message ?? data}`));
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const text = choice.delta?.content;
    if (text) {
      result.content += text;
      onDelta(text);
    }
    for (const fragment of choice.delta?.tool_calls ?? []) addFragment(calls, fragment);
    if (choice.finish_reason) result.finishReason = choice.finish_reason;
  }
  if (!done && !result.finishReason) throw new ProviderError('the stream ended early');
  result.toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  if (result.toolCalls.some((call) => !call.function.name)) {
    throw new ProviderError('a tool call came without a name');
  }
  return result;
}

async function post(
  settings: ProviderSettings,
  body: { messages: ProviderMessage[]; tools?: ToolDefinition[] },
  signal: AbortSignal,
): Promise<Response> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  // The address as the log shows it: credentials in it are masked like the key.
  const shown = masked(settings, redactUrl(url));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
  };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: settings.model, stream: true, ...body }),
      signal,
    });
  } catch (error) {
    throw new ProviderError(masked(settings, `cannot reach ${shown}: ${describe(error)}`));
  }
  if (!response.ok || !response.body) {
    // The provider's own words help the operator; a key it echoes is masked.
    const text = (await response.text().catch(() => '')).slice(0, 500);
    throw new ProviderError(masked(settings, `${shown} answered ${response.status}: ${text}`));
  }
  return response;
}

/** Text for the log: the key, should the provider or an address echo it, is masked. */
function masked(settings: ProviderSettings, text: string): string {
  const { apiKey } = settings;
  if (!apiKey) return text;
  return [apiKey, encodeURIComponent(apiKey)].reduce((t, key) => t.replaceAll(key, '***'), text);
}

function parseChunk(settings: ProviderSettings, data: string): Chunk {
  try {
    return JSON.parse(data) as Chunk;
  } catch {
    throw new ProviderError(masked(settings, `not a JSON chunk: ${data.slice(0, 200)}`));
  }
}

function addFragment(calls: Map<number, ToolCall>, fragment: ChunkToolCall) {
  const index = fragment.index ?? 0;
  let call = calls.get(index);
  if (!call) {
    call = { id: '', type: 'function', function: { name: '', arguments: '' } };
    calls.set(index, call);
  }
  if (fragment.id) call.id = fragment.id;
  if (fragment.function?.name) call.function.name += fragment.function.name;
  if (fragment.function?.arguments) call.function.arguments += fragment.function.arguments;
  if (!call.id) call.id = `call_${index}`;
}

/**
 * The `data` of each server-sent event, as the provider's bytes arrive. eventsource-parser does
 * the line splitting (LF, CRLF, CR, also across reads), the joining of `data:` lines and the
 * skipping of comments and other fields.
 */
export async function* dataEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const events: string[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event.data) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        if (signal.aborted) throw error;
        throw new ProviderError(`the stream broke: ${describe(error)}`);
      }
      // A last event the provider does not close with a blank line still counts: some
      // providers end with "data: [DONE]" and close the connection.
      parser.feed(
        read.done ? `${decoder.decode()}\n\n` : decoder.decode(read.value, { stream: true }),
      );
      yield* events.splice(0);
      if (read.done) break;
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
