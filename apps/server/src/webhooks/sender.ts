import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { vetHost, type VettedAddress } from './address-guard';

export interface SendOutcome {
  /** The receiver's HTTP status. */
  status: number;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

/** No answer within the timeout: retried like a refusal. */
export class SendTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** A lookup that answers only the address vetted before, whatever name it is asked for. */
function pinnedLookup(vetted: VettedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(null, [{ address: vetted.address, family: vetted.family }]);
    } else {
      callback(null, vetted.address, vetted.family);
    }
  };
}

/**
 * POSTs one signed message. The host is resolved and every address checked first, then the
 * connection goes to that very address (TLS still checks the certificate for the host name,
 * and Host names it). Redirects are not followed: a 3xx is an answer that is not a 2xx. The
 * answer's body is read and dropped, at most as much as arrives before the timeout.
 */
export async function sendSigned(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendOutcome> {
  const url = new URL(target);
  const vetted = await vetHost(url.hostname, options.allowPrivate);
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<SendOutcome>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'TenantConsole-Webhooks/1',
        },
        lookup: pinnedLookup(vetted),
        agent: false,
        timeout: options.timeoutMs,
      },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0 }));
        answer.on('error', reject);
      },
    );
    // One deadline for the whole exchange, besides the socket's idle timeout.
    const deadline = setTimeout(
      () => outgoing.destroy(new SendTimeoutError(options.timeoutMs)),
      options.timeoutMs,
    );
    outgoing.on('timeout', () => outgoing.destroy(new SendTimeoutError(options.timeoutMs)));
    outgoing.on('error', reject);
    outgoing.on('close', () => clearTimeout(deadline));
    outgoing.end(body);
  });
}
