import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveTokens } from '../../../lib/session';
import { ChatStreamError, parseEventStream, readChatChunks, streamChat } from './chat';

/** A body delivered in the given pieces, as a network would split it. */
function body(...pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) {
        controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      }
      controller.close();
    },
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('parseEventStream', () => {
  it('splits events at blank lines, names them and skips comments', async () => {
    const events = await collect(
      parseEventStream(body(': ok\n\n', 'data: {"delta":"a"}\n\n', 'event: error\ndata: x\n\n')),
    );
    expect(events).toEqual([
      { event: 'message', data: '{"delta":"a"}' },
      { event: 'error', data: 'x' },
    ]);
  });

  it('joins events and lines split across chunks, with CRLF, CR and multi-line data', async () => {
    const events = await collect(
      parseEventStream(body('da', 'ta: one\r', '\ndata:two\r\r', 'data: three\n', '\n')),
    );
    expect(events).toEqual([
      { event: 'message', data: 'one\ntwo' },
      { event: 'message', data: 'three' },
    ]);
  });

  it('keeps a character whose bytes arrive in two chunks', async () => {
    const bytes = new TextEncoder().encode('data: Grüße\n\n');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of "ü"
    const events = await collect(parseEventStream(body(bytes.slice(0, split), bytes.slice(split))));
    expect(events).toEqual([{ event: 'message', data: 'Grüße' }]);
  });

  it('drops an event the stream ends before closing', async () => {
    expect(await collect(parseEventStream(body('data: a\n\ndata: b')))).toEqual([
      { event: 'message', data: 'a' },
    ]);
  });
});

describe('readChatChunks', () => {
  it('parses the JSON chunks of the contract', async () => {
    const chunks = await collect(
      readChatChunks(body('data: {"delta":"Hi"}\n\n', 'data: {"done":true}\n\n')),
    );
    expect(chunks).toEqual([{ delta: 'Hi' }, { done: true }]);
  });

  it('rejects data that is not a chunk', async () => {
    await expect(collect(readChatChunks(body('data: {"other":1}\n\n')))).rejects.toThrow();
  });
});

describe('streamChat', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const answer = (...pieces: string[]) =>
    new Response(body(...pieces), { headers: { 'Content-Type': 'text/event-stream' } });
  const messages = [{ role: 'user' as const, content: 'How many users?' }];

  beforeEach(() => {
    saveTokens({ access_token: 'access', refresh_token: 'refresh' }, false);
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('posts the conversation and hands over each piece as it arrives', async () => {
    fetchMock.mockResolvedValueOnce(
      answer(
        ': ok\n\n',
        'data: {"delta":"Three "}\n\n',
        'data: {"delta":"users."}\n\n',
        'data: {"done":true}\n\n',
      ),
    );
    const deltas: string[] = [];
    await streamChat(messages, (delta) => deltas.push(delta));
    expect(deltas).toEqual(['Three ', 'users.']);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1.0/assistant/chat');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ messages });
  });

  it('fails with the error chunk of a provider failure', async () => {
    fetchMock.mockResolvedValueOnce(
      answer('data: {"delta":"Par"}\n\n', 'event: error\ndata: {"error":"Error: Unable"}\n\n'),
    );
    const failure = streamChat(messages, () => {});
    await expect(failure).rejects.toBeInstanceOf(ChatStreamError);
    await expect(failure).rejects.toThrow('Error: Unable');
  });

  it('fails when the answer breaks off before done', async () => {
    fetchMock.mockResolvedValueOnce(answer('data: {"delta":"Par"}\n\n'));
    await expect(streamChat(messages, () => {})).rejects.toBeInstanceOf(ChatStreamError);
  });

  it('throws the ApiError of a refused request', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ status: 429, title: 'Too Many Requests' }), {
        status: 429,
        headers: { 'Retry-After': '7' },
      }),
    );
    await expect(streamChat(messages, () => {})).rejects.toMatchObject({
      status: 429,
      retryAfter: 7,
    });
  });
});
