import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** One message as the receiver got it. */
export interface ReceivedMessage {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  type: string;
  data: Record<string, unknown>;
  receivedAt: number;
}

/**
 * A local webhook receiver: records every POST and answers with the status `answer` gives for
 * it (200 by default), so tests can fail some attempts, then accept.
 */
export class WebhookReceiver {
  readonly messages: ReceivedMessage[] = [];
  answer: (message: ReceivedMessage, index: number) => number = () => 200;
  private server: Server | undefined;
  port = 0;

  get url() {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void readBody(request).then((body) => {
        const parsed = safeParse(body);
        const message: ReceivedMessage = {
          id: String(request.headers['webhook-id'] ?? ''),
          timestamp: String(request.headers['webhook-timestamp'] ?? ''),
          signature: String(request.headers['webhook-signature'] ?? ''),
          body,
          type: typeof parsed.type === 'string' ? parsed.type : '',
          data: (parsed.data ?? {}) as Record<string, unknown>,
          receivedAt: Date.now(),
        };
        this.messages.push(message);
        response.statusCode = this.answer(message, this.messages.length - 1);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  /** Whether `secret` signed this message (Standard Webhooks' own verification). */
  static verifies(secret: string, message: ReceivedMessage): boolean {
    try {
      new Webhook(secret).verify(message.body, {
        'webhook-id': message.id,
        'webhook-timestamp': message.timestamp,
        'webhook-signature': message.signature,
      });
      return true;
    } catch {
      return false;
    }
  }

  of(type: string) {
    return this.messages.filter((m) => m.type === type);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function safeParse(body: string): Record<string, unknown> {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return {};
  }
}
