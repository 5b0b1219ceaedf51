import { createServer } from 'node:net';

/**
 * A port nobody listened on a moment ago. Another process may still take it before the caller
 * binds it, so whoever listens on it checks that it was the one to bind (EADDRINUSE), and
 * whoever waits for a server checks that the server answering is the one it started.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** True when listening failed because another process holds the port. */
export const isPortTaken = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
