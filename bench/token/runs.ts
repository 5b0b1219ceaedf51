/** The measured runs of the token benchmark, each on a server of its own. */
import { Cleanups } from '../lib/cleanups';
import type { Engine } from '../lib/database';
import { undisturbed, waitForIdle } from './cpu';
import { checkRotation, passwordScenario, RefreshPool, refreshScenario } from './grants';
import { hashMedianMs } from './hash';
import { startEngineServer, startHashOnlyServer, type RunningServer } from './servers';
import { CONNECTIONS, CORES, DURATION, round, WARMUP } from './settings';

/** Password grants against a running server, with the hash timed right before and after. */
async function passwordRun(
  what: string,
  server: RunningServer,
  limit: number,
  hashCeiling: number,
) {
  // The hash is timed again right before and after the run: on a shared virtual machine
  // its cost drifts by 10-20 % within minutes, and the percentage must compare like with like.
  const password = await undisturbed(what, async () => {
    const hashBefore = await hashMedianMs(60);
    console.error(`${what}: ${DURATION} s, ${CONNECTIONS} connections`);
    const result = await passwordScenario(server, DURATION);
    const hashAfter = await hashMedianMs(60);
    return { ...result, adjacentHashMs: { before: hashBefore, after: hashAfter } };
  });
  const { before, after } = password.adjacentHashMs;
  const adjacentLimit = round(CORES / ((before + after) / 2 / 1000), 1);
  return {
    ...password,
    /** Against the limit from the hash timed right before and after this run. */
    hashBoundLimitPerSecond: adjacentLimit,
    pctOfHashBoundLimit: round((password.perSecond / adjacentLimit) * 100, 1),
    /** Against the limit from the hash measurement at the start of the benchmark. */
    pctOfStartHashBoundLimit: round((password.perSecond / limit) * 100, 1),
    /** Against what the machine measurably hashes with hashes side by side. */
    pctOfMeasuredHashRate: round((password.perSecond / hashCeiling) * 100, 1),
  };
}

/** The same load against the hash-only server: the most any server here could reach. */
export async function benchHashOnlyServer(limit: number, hashCeiling: number) {
  console.error('\n[hash-only] starting node:http + argon2id, nothing else…');
  const cleanups = new Cleanups();
  try {
    const server = await startHashOnlyServer(cleanups);
    await waitForIdle('the hash-only warm-up');
    if (WARMUP > 0) await passwordScenario(server, WARMUP);
    return await passwordRun('the hash-only server', server, limit, hashCeiling);
  } finally {
    await cleanups.run();
  }
}

export async function benchEngine(
  engine: Engine,
  limit: number,
  hashCeiling: number,
  profileDir: string | undefined,
) {
  console.error(`\n[${engine}] starting the built server…`);
  const cleanups = new Cleanups();
  try {
    const server = await startEngineServer(engine, cleanups, profileDir);
    await waitForIdle(`the ${engine} warm-up`);
    if (WARMUP > 0) {
      console.error(`[${engine}] password grant warm-up ${WARMUP} s`);
      await passwordScenario(server, WARMUP);
    }
    const password = await passwordRun(`the ${engine} password grants`, server, limit, hashCeiling);
    const pool = new RefreshPool([]);
    if (WARMUP > 0) {
      await pool.fill(server.url);
      console.error(`[${engine}] refresh grant warm-up ${WARMUP} s`);
      await refreshScenario(server, pool, WARMUP);
    }
    const refresh = await undisturbed(`the ${engine} refresh grants`, async () => {
      await pool.fill(server.url);
      console.error(`[${engine}] refresh grant ${DURATION} s, ${CONNECTIONS} connections`);
      return refreshScenario(server, pool, DURATION);
    });
    await pool.fill(server.url);
    const rotation = await checkRotation(server.url, pool);
    return {
      password,
      refresh,
      rotationCheck: rotation,
    };
  } finally {
    await cleanups.run();
  }
}

export type EngineResult = Awaited<ReturnType<typeof benchEngine>>;
export type HashOnlyResult = Awaited<ReturnType<typeof benchHashOnlyServer>>;
