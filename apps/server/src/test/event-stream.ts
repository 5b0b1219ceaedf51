/** One block of a server-sent event stream: what the server wrote, comments left out. */
export interface SseBlock {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
}

/**
 * Reads a server-sent event stream over fetch block by block, with timeouts. The blocks are
 * parsed here rather than by an EventSource library, so that a test sees exactly what the
 * server wrote: id-only blocks (a resume point) and `retry:` hints too.
 */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<string>;
  #pending: Promise<ReadableStreamReadResult<string>> | undefined;
  #buffer = '';
  /** Every block received, id-only ones included. */
  readonly blocks: SseBlock[] = [];
  /** The stream ended, or its connection broke. */
  ended = false;

  constructor(
    readonly response: Response,
    private readonly controller = new AbortController(),
  ) {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next block with data (a dispatched event), or undefined after `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<SseBlock | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const block = await this.nextBlock(Math.max(0, deadline - Date.now()));
      if (!block || block.data !== undefined) return block;
    }
  }

  /** The next block of any kind, or undefined after `timeoutMs` or at the end. */
  async nextBlock(timeoutMs = 5000): Promise<SseBlock | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const block = this.#take();
      if (block) return block;
      const remaining = deadline - Date.now();
      if (remaining <= 0 || this.ended) return undefined;
      this.#pending ??= this.#reader.read();
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        this.#pending,
        new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, remaining, 'timeout'))),
      ]).catch(() => ({ done: true, value: undefined }) as const);
      clearTimeout(timer);
      if (result === 'timeout') return undefined;
      this.#pending = undefined;
      if (result.done) {
        this.ended = true;
        return undefined;
      }
      this.#buffer += result.value;
    }
  }

  /** The id of the last block that carried one: where EventSource would resume. */
  get lastEventId(): string | undefined {
    return this.blocks.findLast((block) => block.id !== undefined)?.id;
  }

  close() {
    this.controller.abort();
  }

  #take(): SseBlock | undefined {
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end < 0) return undefined;
      const text = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      const block: SseBlock = {};
      for (const line of text.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id' || field === 'event' || field === 'data' || field === 'retry') {
          block[field] = value;
        }
      }
      // A block of comments only (a heartbeat) is no block to a client.
      if (Object.keys(block).length === 0) continue;
      this.blocks.push(block);
      return block;
    }
  }
}
