import { request } from 'node:http';
import { expect } from 'vitest';
import type { TestServer } from '../harness';
import type { ReceivedMail } from '../smtp';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): unknown;
}

/**
 * POSTs JSON to the test server as if sent to `host` (fetch cannot set Host), so a link to
 * a tenant's own domain reaches the server the way a browser on that domain would.
 */
export function postJson(
  server: TestServer,
  path: string,
  body: unknown,
  options: { host?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const target = new URL(`/api/v1.0${path}`, server.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          host: options.host ?? target.host,
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text) as unknown,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The tenant host a test server answers for (its domain on the server's port). */
export const tenantHost = (server: TestServer, domain: string) =>
  `${domain}:${new URL(server.url).port}`;

/** The one action link of a mail's text part. */
export function linkIn(mail: ReceivedMail | string): URL {
  const text = typeof mail === 'string' ? mail : mail.text;
  const match = /https?:\/\/\S+\?token=[\w-]+/.exec(text);
  expect(match, `no link in: ${text}`).not.toBeNull();
  return new URL(match![0]);
}

/** Opens a link the way the web screen does: POSTs its token to the API on the link's host. */
export function followLink(
  server: TestServer,
  link: URL,
  path: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return postJson(
    server,
    path,
    { token: link.searchParams.get('token'), ...body },
    { host: link.host, headers },
  );
}

export const NEW_PASSWORD = 'Brand-new-pass#1';
