import { Writable } from 'node:stream';

/**
 * The server's log on standard output, written so that it can never keep the process alive.
 *
 * pino's default destination flushes synchronously when the process exits, and sonic-boom
 * retries a failed synchronous write for ever, whatever the error: once whoever read the
 * output has gone (a supervisor's closed pipe, `npm start | head`, a test harness that
 * exited), the write fails with EPIPE on every try, the main thread sleeps between tries in
 * `Atomics.wait`, and the SHUTDOWN_TIMEOUT timer can never fire. Node's own stream reports
 * EPIPE as an error event instead; from then on nobody reads the log, so lines are dropped.
 */
export function standardOutputLog(out: NodeJS.WriteStream = process.stdout): Writable {
  let readerGone = false;
  out.on('error', () => {
    readerGone = true;
  });
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (readerGone) return done();
      out.write(chunk, () => done());
    },
  });
}
