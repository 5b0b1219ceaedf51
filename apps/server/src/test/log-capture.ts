import { request } from 'node:http';
import { Writable } from 'node:stream';
import type { TestServer } from './harness';

/** Collects every line the server's logger writes. */
export class LogCapture extends Writable {
  text = '';

  override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }

  get lines(): string[] {
    return this.text.split('\n').filter(Boolean);
  }
}

/** The forms a secret may take in a line: as is, URL-encoded, and escaped inside JSON. */
export function secretForms(secret: string): string[] {
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  const encoded = encodeURIComponent(secret);
  return [...new Set([secret, encoded, json(secret), json(encoded)])];
}

/** The names of the secrets that appear, in any form, in `text`. */
export function leakedSecrets(text: string, secrets: Map<string, string>): string[] {
  const leaked: string[] = [];
  for (const [name, secret] of secrets) {
    if (secretForms(secret).some((form) => text.includes(form))) leaked.push(name);
  }
  return leaked;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface SendOptions {
  /** The Host header, e.g. a tenant's domain (fetch cannot set it). */
  host?: string;
  token?: string;
  /** JSON unless a Buffer or a string (sent as is, with the content type given in headers). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Resolve once the headers arrive and close the connection (an event stream). */
  headersOnly?: boolean;
}

/** One request over node:http, so any Host, method and raw path can be sent. */
export function send(
  server: TestServer,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Answer> {
  const base = new URL(server.url);
  const { body } = options;
  const payload =
    body === undefined
      ? undefined
      : Buffer.isBuffer(body)
        ? body
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const headers: Record<string, string> = {
    host: options.host ?? base.host,
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(payload && !Buffer.isBuffer(body) && typeof body !== 'string'
      ? { 'content-type': 'application/json' }
      : {}),
    ...options.headers,
  };
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, method, path, headers }, (res) => {
      const answer = { status: res.statusCode ?? 0, headers: res.headers };
      if (options.headersOnly) {
        res.destroy();
        resolve({ ...answer, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ ...answer, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
