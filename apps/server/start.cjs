// The production entry point. argon2 hashes run on libuv's thread pool; more threads than
// cores make the 19 MiB hashes thrash (measured: 56 % of the hash-bound login rate with the
// default 4 threads on 2 cores, 78 % with 2). The pool size must be set before Node's ESM
// loader starts the pool, hence this CommonJS file rather than a line in main.ts.
const { availableParallelism } = require('node:os');

process.env.UV_THREADPOOL_SIZE ??= String(Math.max(2, availableParallelism()));
import('./dist/main.js');
