import { describe, expect, it } from 'vitest';
import { dataEvents, ProviderError } from './provider';

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

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const all: string[] = [];
  for await (const data of dataEvents(stream, new AbortController().signal)) all.push(data);
  return all;
}

describe('dataEvents', () => {
  it('joins lines split across reads, with CRLF, CR, comments and other fields', async () => {
    const events = await collect(
      body(
        ': keep-alive\n\n',
        'da',
        'ta: one\r',
        '\ndata:two\r\r',
        'event: x\ndata: three\n',
        '\n',
      ),
    );
    expect(events).toEqual(['one\ntwo', 'three']);
  });

  it('keeps a character whose bytes arrive in two reads', async () => {
    const bytes = new TextEncoder().encode('data: Grüße\n\n');
    const split = bytes.indexOf(0xc3) + 1;
    expect(await collect(body(bytes.slice(0, split), bytes.slice(split)))).toEqual(['Grüße']);
  });

  it('counts a last event the provider does not close with a blank line', async () => {
    expect(await collect(body('data: {"a":1}\n\ndata: [DONE]'))).toEqual(['{"a":1}', '[DONE]']);
  });

  it('turns a broken connection into a ProviderError', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: a\n\n'));
        controller.error(new Error('socket hang up'));
      },
    });
    await expect(collect(broken)).rejects.toThrow(ProviderError);
  });
});
