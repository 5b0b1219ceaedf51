/** The token benchmark's figures as a table on stdout (the whole of them go to token.json). */
import type { Engine } from '../lib/database';
import { fromRoot } from '../lib/paths';
import type { cpuUse } from './cpu';
import type { ScenarioResult } from './grants';
import type { HashResult } from './hash';
import type { EngineResult, HashOnlyResult } from './runs';
import { CORES, resultsFile, round, TARGETS } from './settings';
import { table } from '../lib/table';

export interface Report {
  hash: HashResult;
  hashOnlyServer: HashOnlyResult | undefined;
  engines: Partial<Record<Engine, EngineResult>>;
}

const cpuCell = (cpu: ReturnType<typeof cpuUse>) =>
  `${cpu.serverPct} (loop ${cpu.serverEventLoopPct}) / ${cpu.postgresPct} / ${cpu.benchPct} / ${cpu.otherPct}`;

export function printReport({ hash, hashOnlyServer: hashOnly, engines }: Report) {
  const limit = hash.hashBoundLimitPerSecond;
  const pgResult = engines.postgres;
  const rows = [['', ...Object.keys(engines)]];
  const each = (label: string, pick: (r: NonNullable<typeof pgResult>) => string) =>
    rows.push([label, ...Object.values(engines).map(pick)]);
  const lat = (l: ScenarioResult['latencyMs']) => `${l.p50} / ${l.p99} ms`;
  const bad = (s: ScenarioResult) => `${s.non2xx} / ${s.errors} / ${s.timeouts}`;
  each('password grants/s', (r) => String(r.password.perSecond));
  each('  hash-bound limit (adjacent hash)', (r) => `${r.password.hashBoundLimitPerSecond}/s`);
  each('  % of hash-bound limit', (r) => `${r.password.pctOfHashBoundLimit} %`);
  each('  % of measured hash rate', (r) => `${r.password.pctOfMeasuredHashRate} %`);
  if (hashOnly) {
    each('  % of the hash-only server', (r) => {
      const pct = (r.password.perSecond / hashOnly.perSecond) * 100;
      return `${round(pct, 1)} %`;
    });
  }
  each('  latency p50 / p99', (r) => lat(r.password.latencyMs));
  each('  non-2xx / errors / timeouts', (r) => bad(r.password));
  each('  CPU % server (loop)/pg/bench/other', (r) => cpuCell(r.password.cpu));
  each('refresh grants/s', (r) => String(r.refresh.perSecond));
  each('  latency p50 / p99', (r) => lat(r.refresh.latencyMs));
  each('  non-2xx / errors / timeouts', (r) => bad(r.refresh));
  each('  CPU % server (loop)/pg/bench/other', (r) => cpuCell(r.refresh.cpu));
  each('rotation check (200, then 400)', (r) => (r.rotationCheck.ok ? 'ok' : 'FAILED'));

  console.log(
    `\nargon2id (m=19 MiB, t=2, p=1): median ${hash.medianMs} ms, mean ${hash.meanMs} ms ` +
      `over ${hash.samples} hashes (verify median ${hash.verifyMedianMs} ms)`,
  );
  console.log(
    `hash-bound limit: ${CORES} cores / ${hash.medianMs} ms = ${limit} grants/s ` +
      `(measured: ` +
      Object.entries(hash.parallelHashesPerSecond)
        .map(([n, rate]) => `${rate}/s with ${n} in flight`)
        .join(', ') +
      `)\n`,
  );
  if (hashOnly) {
    console.log(
      `hash-only server (node:http + the hash, nothing else): ${hashOnly.perSecond} grants/s = ` +
        `${hashOnly.pctOfHashBoundLimit} % of the limit timed beside it ` +
        `(${hashOnly.hashBoundLimitPerSecond}/s), p99 ${hashOnly.latencyMs.p99} ms, ` +
        `CPU ${cpuCell(hashOnly.cpu)}\n`,
    );
  }
  console.log(table(rows));
  console.log(
    `CPU: % of one core (${CORES * 100} % = the machine); loop = the server's event-loop thread; ` +
      'other = processes outside this benchmark',
  );
  console.log(
    `\ntargets: password ≥ ${TARGETS.passwordPctOfHashLimit} % of limit — ` +
      Object.entries(engines)
        .map(([e, r]) => `${e} ${r.password.pctOfHashBoundLimit} %`)
        .join(', ') +
      `; refresh on PostgreSQL ≥ ${TARGETS.refreshPerSecondPostgres}/s — ` +
      (pgResult ? `${pgResult.refresh.perSecond}/s` : 'not run'),
  );
  console.log(`results: ${fromRoot(resultsFile)}`);
}
