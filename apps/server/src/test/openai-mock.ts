import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';

/**
 * A local stand-in for an OpenAI-compatible chat-completions API (`POST /v1/chat/completions`
 * with `stream: true`), for the assistant's HTTP and browser tests. Each request takes the next
 * scripted response; with none left it answers "Mock answer: <last user message>".
 *
 * Other processes (Playwright specs) script it over HTTP: `POST /__mock/script` with a JSON
 * array of responses, `GET /__mock/requests`, `POST /__mock/reset`.
 * Standalone: `npx tsx apps/server/src/test/openai-mock.ts --port 4010`.
 */
export type ScriptedResponse =
  /** Streamed text; a string is sent a word per chunk, an array a piece per chunk. */
  | { text: string | string[]; delayMs?: number }
  /** Tool calls, each split across several chunks, ending with finish_reason `tool_calls`. */
  | { toolCalls: { name: string; arguments: unknown; id?: string }[]; delayMs?: number }
  /** A non-2xx answer, e.g. `{ status: 500 }` or `{ status: 401, body: '…' }`. */
  | { status: number; body?: string }
  /** Any body as an event stream, e.g. a broken one. */
  | { raw: string }
  /** Closes the connection without an answer. */
  | { hangUp: true };

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model?: string;
    stream?: boolean;
    messages: {
      role: string;
      content: string | null;
      tool_call_id?: string;
      tool_calls?: unknown;
    }[];
    tools?: { function: { name: string } }[];
  };
}

export interface OpenAiMock {
  /** The base URL to configure as ASSISTANT_BASE_URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  script(...responses: ScriptedResponse[]): void;
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_DELAY_MS = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function chunk(delta: object, finishReason: string | null = null): string {
  const body = {
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'mock',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** The chunks of one scripted streamed answer, in order. */
function streamChunks(response: ScriptedResponse): string[] {
  const chunks = [chunk({ role: 'assistant', content: '' })];
  if ('text' in response) {
    const pieces = Array.isArray(response.text)
      ? response.text
      : (response.text.match(/\S+\s*|\s+/g) ?? []);
    for (const piece of pieces) chunks.push(chunk({ content: piece }));
    chunks.push(chunk({}, 'stop'));
  } else if ('toolCalls' in response) {
    response.toolCalls.forEach((call, index) => {
      const args =
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      const half = Math.ceil(args.length / 2);
      const id = call.id ?? `call_mock_${index}`;
      const first = { index, id, type: 'function', function: { name: call.name, arguments: '' } };
      chunks.push(chunk({ tool_calls: [first] }));
      for (const part of [args.slice(0, half), args.slice(half)]) {
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
      }
    });
    chunks.push(chunk({}, 'tool_calls'));
  }
  chunks.push('data: [DONE]\n\n');
  return chunks;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startOpenAiMock(options: { port?: number; host?: string } = {}) {
  const queue: ScriptedResponse[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  async function complete(request: IncomingMessage, response: ServerResponse) {
    const body = (await readJson(request)) as RecordedRequest['body'];
    requests.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
    const lastUser = [...body.messages].reverse().find((m) => m.role === 'user');
    const next = queue.shift() ?? { text: `Mock answer: ${lastUser?.content ?? ''}` };
    if ('hangUp' in next) return request.socket.destroy();
    if ('status' in next) {
      const error = { error: { message: next.body ?? 'mock failure', type: 'mock_error' } };
      response.writeHead(next.status, { 'content-type': 'application/json' });
      return response.end(next.body ?? JSON.stringify(error));
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if ('raw' in next) return response.end(next.raw);
    for (const text of streamChunks(next)) {
      if (response.destroyed) return;
      response.write(text);
      await sleep(next.delayMs ?? DEFAULT_DELAY_MS);
    }
    response.end();
  }

  async function control(request: IncomingMessage, response: ServerResponse, path: string) {
    if (path === '/__mock/script' && request.method === 'POST') {
      queue.push(...((await readJson(request)) as ScriptedResponse[]));
    } else if (path === '/__mock/reset' && request.method === 'POST') {
      queue.length = 0;
      requests.length = 0;
    } else if (path === '/__mock/requests' && request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify(requests));
    } else {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(204).end();
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://mock').pathname;
    const work =
      request.method === 'POST' && path.endsWith('/chat/completions')
        ? complete(request, response)
        : control(request, response, path);
    work.catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const mock: OpenAiMock = {
    url: `http://${host}:${port}/v1`,
    port,
    requests,
    script: (...responses) => void queue.push(...responses),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return mock;
}

// Run directly: a mock for the browser tests or for trying the widget by hand.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flag = process.argv.indexOf('--port');
  const port = Number(flag > 0 ? process.argv[flag + 1] : (process.env.OPENAI_MOCK_PORT ?? 4010));
  const mock = await startOpenAiMock({ port });
  console.log(`OpenAI mock listening: ASSISTANT_BASE_URL=${mock.url}`);
}
