import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';

/**
 * One generated HTTP request, sent as it is: the path with its query already encoded (so a
 * broken escape reaches the server), header values in Latin-1 (what HTTP carries) and the body
 * as bytes. Printed as the request's text when fast-check reports a counterexample.
 */
export class FuzzRequest {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly body?: Buffer,
    /** The answer may be an event stream that never ends: read only its head. */
    readonly endless = false,
  ) {}

  [fc.toStringMethod](): string {
    const head = Object.entries(this.headers).map(([name, value]) => `${name}: ${show(value)}`);
    const body = this.body ? showBody(this.body) : '';
    return `\n${this.method} ${show(this.path)}\n${head.join('\n')}\n\n${body}\n`;
  }
}

/** Escaped, and cut after 2,000 characters: a shrunk request can still be very long. */
function show(text: string): string {
  const shown = JSON.stringify(text.slice(0, 2000)).slice(1, -1);
  return text.length > 2000 ? `${shown} … (${text.length} characters)` : shown;
}

function showBody(body: Buffer): string {
  const limit = 2000;
  const text = body.subarray(0, limit).toString('utf8');
  const more = body.length > limit ? ` … (${body.length} bytes)` : '';
  return !body.subarray(0, limit).equals(Buffer.from(text))
    ? `base64:${body.subarray(0, limit).toString('base64')}${more}`
    : `${JSON.stringify(text).slice(1, -1)}${more}`;
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The start of the body (an endless event stream is cut off after its headers). */
  text: string;
  /** The connection was closed on an oversized request before it was all sent. */
  refusedInTransit?: boolean;
}

const MAX_BODY_READ = 64 * 1024;
const ANSWER_TIMEOUT_MS = 60_000;
// Node answers a head over 16 KB with 431 and the app a body over 1 MB with 413, and either
// may close the connection while the client is still sending: a reset is then their answer.
const MAX_HEAD_BYTES = 16 * 1024;
const MAX_BODY_BYTES = 1024 * 1024;

function oversized(request: FuzzRequest): boolean {
  const headers = Object.entries(request.headers);
  const head = request.path.length + headers.reduce((n, [k, v]) => n + k.length + v.length, 0);
  return head > MAX_HEAD_BYTES || (request.body?.length ?? 0) > MAX_BODY_BYTES;
}

/** One keep-alive connection per sender: requests go one after another, as a client sends. */
export function createSender(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  // When the server answers before reading a large body and then drops the connection, the
  // rest of the body fails to write after the request has let go of its socket: Node then
  // has no listener for that error and throws it, failing whichever test runs. Its request
  // already has its answer, so the late error is dropped here, once per connection.
  const watched = new WeakSet<object>();
  const ignoreLateErrors = (socket: NodeJS.EventEmitter) => {
    if (watched.has(socket)) return;
    watched.add(socket);
    socket.on('error', () => undefined);
  };

  // A kept-alive connection may be closed by the server just as the next request goes out;
  // that request is sent again on a new one (as Node's documentation advises). A connection
  // reset on a fresh connection is the server's doing, and fails, unless it refused a size.
  async function send(request: FuzzRequest): Promise<FuzzAnswer> {
    try {
      try {
        return await sendOnce(request);
      } catch (error) {
        if (!(error instanceof StaleConnectionError)) throw error;
        return await sendOnce(request);
      }
    } catch (error) {
      if (!oversized(request)) throw error;
      return { status: 0, headers: {}, text: '', refusedInTransit: true };
    }
  }

  function sendOnce(request: FuzzRequest): Promise<FuzzAnswer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...request.headers };
      if (request.body) headers['content-length'] = String(request.body.length);
      const outgoing = httpRequest(
        {
          host: hostname,
          port,
          method: request.method,
          path: request.path,
          headers,
          agent,
          // A redirect may echo a long query in its Location header.
          maxHeaderSize: 1024 * 1024,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            });
          };
          const stream = String(response.headers['content-type']).startsWith('text/event-stream');
          if (stream && request.endless) {
            response.destroy();
            finish();
            return;
          }
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size > MAX_BODY_READ && !stream) {
              response.destroy();
              finish();
            }
          });
          response.on('end', finish);
          response.on('error', () => finish());
        },
      );
      outgoing.on('socket', ignoreLateErrors);
      outgoing.setTimeout(ANSWER_TIMEOUT_MS, () =>
        outgoing.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)),
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')
            ? new StaleConnectionError()
            : error,
        ),
      );
      outgoing.end(request.body);
    });
  }

  return { send, close: () => agent.destroy() };
}
export type Sender = ReturnType<typeof createSender>;

class StaleConnectionError extends Error {}
