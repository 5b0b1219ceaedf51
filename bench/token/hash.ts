/** The cost of one argon2id hash on this machine: the yardstick of the password grants. */
import { hashPassword, verifyPassword } from '../../apps/server/src/identity/passwords';
import { cpuSnapshot, cpuUse, describeOther, waitForIdle } from './cpu';
import {
  ATTEMPTS,
  CORES,
  HASH_SAMPLES,
  mean,
  median,
  OTHER_MAX_PCT,
  percentile,
  round,
  USER,
} from './settings';

/** Median time of `count` hashes one after the other, in ms. */
export async function hashMedianMs(count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await hashPassword(USER.password);
    times.push(performance.now() - start);
  }
  return round(median(times), 2);
}

/** Hashes per second with `inFlight` hashes running at once, for `ms` milliseconds. */
async function hashRate(inFlight: number, ms: number): Promise<number> {
  let done = 0;
  const started = performance.now();
  const until = started + ms;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await hashPassword(USER.password);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

async function measureHashOnce() {
  // Warm-up: a fresh process's first few hundred hashes are slower (the allocator is still
  // growing its arenas: page faults); the server's thread pool is long past that.
  await hashRate(CORES * 2, 2000);
  const before = cpuSnapshot();
  const hashMs: number[] = [];
  for (let i = 0; i < HASH_SAMPLES; i += 1) {
    const start = performance.now();
    await hashPassword(USER.password);
    hashMs.push(performance.now() - start);
  }
  // A password grant verifies, it does not hash: verifying is one argon2id computation too.
  const stored = await hashPassword(USER.password);
  const verifyMs: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    if (!(await verifyPassword(stored, USER.password))) throw new Error('verify failed');
    verifyMs.push(performance.now() - start);
  }
  // What the machine really sustains with hashes running side by side: argon2id is
  // memory-hard (19 MiB per hash), so cores hashing at once slow each other down.
  const parallel: Record<string, number> = {};
  for (const inFlight of [CORES, CORES * 2]) {
    parallel[inFlight] = round(await hashRate(inFlight, 3000), 1);
  }
  const cpu = cpuUse(before, cpuSnapshot(), undefined);
  const medianMs = median(hashMs);
  return {
    samples: HASH_SAMPLES,
    medianMs: round(medianMs, 2),
    meanMs: round(mean(hashMs), 2),
    minMs: round(Math.min(...hashMs), 2),
    p90Ms: round(percentile(hashMs, 90), 2),
    maxMs: round(Math.max(...hashMs), 2),
    verifyMedianMs: round(median(verifyMs), 2),
    cores: CORES,
    /** cores ÷ time of one hash: the most password grants per second this machine can do. */
    hashBoundLimitPerSecond: round(CORES / (medianMs / 1000), 1),
    /** Measured hashes per second by number of hashes in flight (libuv thread pool). */
    parallelHashesPerSecond: parallel,
    otherCpuPct: cpu.otherPct,
    otherProcesses: cpu.otherProcesses,
  };
}

/** Measures the hash, again if another process took CPU meanwhile (shared machines). */
export async function measureHash() {
  let result = await measureHashOnce();
  for (let attempt = 2; attempt <= ATTEMPTS && result.otherCpuPct > OTHER_MAX_PCT; attempt += 1) {
    console.error(`interference during the hash measurement (${describeOther(result)}), again…`);
    await waitForIdle('the hash measurement');
    result = await measureHashOnce();
  }
  return result;
}

export type HashResult = Awaited<ReturnType<typeof measureHash>>;
