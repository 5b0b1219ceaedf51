/**
 * The virtual browsers' HTTP: node:http on one keep-alive connection each. fetch would do,
 * but its streams and Headers cost several times more CPU per request, and this process
 * shares the machine's two cores with the server it measures.
 */
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One client's connection to the server: requests on it go one after the other. */
export class Connection {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  send(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          agent: this.agent,
          host: this.host,
          port: this.port,
          method,
          path,
          headers:
            body === undefined
              ? headers
              : { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString(),
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

/**
 * The cookies one browser keeps for the server: name → value, paths ignored (which only adds
 * cookies), as the server's tests keep them. A cleared jar is a new private window.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(answer: Answer) {
    for (const line of answer.headers['set-cookie'] ?? []) {
      const pair = line.split(';', 1)[0]!;
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  clear() {
    this.cookies.clear();
  }
}

/** A location header as a path on the server (it may be absolute, on the issuer's origin). */
export function locationOf(answer: Answer, base: string): URL | undefined {
  const location = answer.headers.location;
  return location ? new URL(location, base) : undefined;
}
