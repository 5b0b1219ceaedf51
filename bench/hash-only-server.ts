/**
 * The least a password-grant server can do, for bench/token.ts: node:http reads the form,
 * verifies the password with the server's own verifyPassword (argon2id, libuv's thread pool)
 * and answers a fixed token response. No framework, database, session or signing.
 *
 *   PORT=9000 PASSWORD=… UV_THREADPOOL_SIZE=2 node --import tsx bench/hash-only-server.ts
 */
import { createServer } from 'node:http';
import { hashPassword, verifyPassword } from '../apps/server/src/identity/passwords';

const port = Number(process.env.PORT);
const password = process.env.PASSWORD ?? '';
const stored = await hashPassword(password);
// About the size of the real answer (an ES256 access token and the other fields).
const answer = JSON.stringify({
  access_token: 'a'.repeat(900),
  expires_in: 300,
  refresh_token: 'r'.repeat(43),
  refresh_expires_in: 1800,
  token_type: 'Bearer',
});

createServer((request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(request.url === '/readyz' ? 200 : 404).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const form = new URLSearchParams(Buffer.concat(chunks).toString());
    void verifyPassword(stored, form.get('password') ?? '').then((ok) => {
      response.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
      response.end(ok ? answer : '{"error":"invalid_grant"}');
    });
  });
}).listen(port, '127.0.0.1');
