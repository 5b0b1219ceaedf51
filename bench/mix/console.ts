/**
 * One signed-in console: its own administrator, session, access and refresh tokens, and one
 * keep-alive connection (a closed loop: the next request leaves when the previous answer has
 * arrived). It remembers what the server told it, as the console does: the total of each
 * list it has seen, so it can jump to any page up to the last.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { TenantFixture } from './fixture';
import { CONSOLE_PASSWORD } from './seed';

export interface Target {
  host: string;
  port: number;
}

export interface Answer {
  status: number;
  text: string;
  /** From the request's start to the answer's last byte. */
  ms: number;
}

/** A small fast PRNG (mulberry32): the same seed gives the same choices. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CLIENT_ID = 'react-client';

export class Console {
  accessToken = '';
  refreshToken = '';
  /** List totals the server gave, by entity and filter. */
  readonly totals = new Map<string, number>();
  rng: () => number;
  private agent: Agent | undefined;
  private target: Target | undefined;

  constructor(
    readonly index: number,
    readonly tenant: TenantFixture,
    readonly email: string,
    seed: number,
  ) {
    this.rng = random(seed * 7919 + index);
  }

  /** New requests go to `target`, over a connection of their own. */
  use(target: Target) {
    this.agent?.destroy();
    this.agent = new Agent({ keepAlive: true, maxSockets: 1 });
    this.target = target;
  }

  close() {
    this.agent?.destroy();
    this.agent = undefined;
  }

  reseed(seed: number) {
    this.rng = random(seed * 7919 + this.index);
  }

  send(method: string, path: string, body?: string, form = false): Promise<Answer> {
    const target = this.target!;
    const headers: Record<string, string | number> = {};
    if (!form) headers.authorization = `Bearer ${this.accessToken}`;
    if (body !== undefined) {
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const started = performance.now();
    return new Promise((resolve) => {
      const outgoing = httpRequest(
        { host: target.host, port: target.port, method, path, headers, agent: this.agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              text: Buffer.concat(chunks).toString(),
              ms: performance.now() - started,
            }),
          );
          response.on('error', (error) =>
            resolve({ status: 0, text: String(error), ms: performance.now() - started }),
          );
        },
      );
      // A refused or reset connection is an answer too: status 0, counted as an error.
      outgoing.on('error', (error) =>
        resolve({ status: 0, text: String(error), ms: performance.now() - started }),
      );
      outgoing.end(body);
    });
  }

  private tokenForm(fields: Record<string, string>) {
    return this.send(
      'POST',
      `/realms/${this.tenant.name}/protocol/openid-connect/token`,
      new URLSearchParams({ client_id: CLIENT_ID, ...fields }).toString(),
      true,
    );
  }

  /** Takes the tokens of a 200 token answer; false for anything else. */
  private takeTokens(answer: Answer): boolean {
    if (answer.status !== 200) return false;
    const tokens = JSON.parse(answer.text) as { access_token?: string; refresh_token?: string };
    if (!tokens.access_token || !tokens.refresh_token) return false;
    this.accessToken = tokens.access_token;
    this.refreshToken = tokens.refresh_token;
    return true;
  }

  /** The password grant, as the console's sign-in does it. */
  async signIn(): Promise<void> {
    const answer = await this.tokenForm({
      grant_type: 'password',
      username: this.email,
      password: CONSOLE_PASSWORD,
    });
    if (!this.takeTokens(answer)) {
      throw new Error(`sign-in of ${this.email}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  }

  /** A refresh grant: the session's next tokens replace the current ones. */
  async refresh(): Promise<Answer> {
    const answer = await this.tokenForm({
      grant_type: 'refresh_token',
      refresh_token: this.refreshToken,
    });
    if (answer.status === 200 && !this.takeTokens(answer)) return { ...answer, status: 0 };
    return answer;
  }
}
