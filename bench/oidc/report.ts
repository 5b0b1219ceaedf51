/** The OpenID Connect benchmark's figures as a table on stdout (all of them go to oidc.json). */
import { fromRoot } from '../lib/paths';
import type { Figures } from './load';
import { resultsFile, TARGETS } from './settings';
import { table } from '../lib/table';

export interface Report {
  commit: string;
  uncommittedServerChanges: boolean;
  loadAverage: { start: number[]; end: number[] };
  hash: { medianMs: number; hashBoundLimitPerSecond: number };
  signIns?: {
    codeFlow: Figures & { requestsPerSecond: number; stepMedianMs: Record<string, number> };
    passwordGrants: Figures;
    codeFlowPctOfPassword: number;
  };
  /** Server and PostgreSQL CPU per request of a sign-in, one sign-in at a time (medians, ms). */
  stepCpu?: Record<string, { serverMs: number; serverLoopMs: number; postgresMs: number }>;
  clientCredentials?: Figures;
  refreshProvider?: Figures & { rotationCheck: { ok: boolean } };
  refreshPassword?: Figures & { rotationCheck: { ok: boolean } };
}

const row = (label: string, f: Figures) => [
  label,
  String(f.perSecond),
  `${f.latencyMs.p50} / ${f.latencyMs.p99}`,
  String(f.failed),
  `${f.cpu.serverMsPerOp} / ${f.cpu.postgresMsPerOp} / ${f.cpu.benchMsPerOp}`,
  `${f.cpu.serverPct} (${f.cpu.serverLoopPct}) / ${f.cpu.postgresPct} / ${f.cpu.benchPct} / ${f.cpu.otherPct}`,
];

const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

export function printReport(r: Report) {
  const rows = [
    [
      'scenario',
      'per s',
      'p50 / p99 ms',
      'failed',
      'CPU ms/op srv / pg / bench',
      'CPU % srv (loop) / pg / bench / other',
    ],
  ];
  const targets: string[] = [];
  if (r.signIns) {
    const { codeFlow, passwordGrants, codeFlowPctOfPassword } = r.signIns;
    rows.push(row('code flow sign-ins (4 requests each)', codeFlow));
    rows.push(row('password grants', passwordGrants));
    targets.push(
      `code flow = ${codeFlowPctOfPassword} % of password grants (≥ ${TARGETS.codeFlowPctOfPassword} %): ` +
        verdict(codeFlowPctOfPassword >= TARGETS.codeFlowPctOfPassword),
    );
  }
  if (r.clientCredentials) {
    rows.push(row('client_credentials (client_secret_basic)', r.clientCredentials));
    const rate = r.clientCredentials.perSecond;
    targets.push(
      `client_credentials ${rate}/s (≥ ${TARGETS.clientCredentialsPerSecond}/s): ` +
        verdict(rate >= TARGETS.clientCredentialsPerSecond),
    );
  }
  for (const [label, f] of [
    ['refresh, code flow (provider)', r.refreshProvider],
    ['refresh, password grant (ours)', r.refreshPassword],
  ] as const) {
    if (!f) continue;
    rows.push(row(label, f));
    targets.push(
      `${label} ${f.perSecond}/s (≥ ${TARGETS.refreshPerSecond}/s): ` +
        `${verdict(f.perSecond >= TARGETS.refreshPerSecond)}; rotation check ${f.rotationCheck.ok ? 'ok' : 'FAILED'}`,
    );
  }
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
  console.log(
    `\ncommit ${r.commit.slice(0, 7)}${r.uncommittedServerChanges ? ' + uncommitted server changes' : ''}; ` +
      `load average at the start ${load(r.loadAverage.start)}, at the end ${load(r.loadAverage.end)}`,
  );
  console.log(
    `argon2id here: median ${r.hash.medianMs} ms → hash-bound limit ${r.hash.hashBoundLimitPerSecond} sign-ins/s\n`,
  );
  console.log(table(rows));
  if (r.signIns) {
    const steps = Object.entries(r.signIns.codeFlow.stepMedianMs)
      .map(([step, ms]) => `${step} ${ms}`)
      .join(', ');
    console.log(`code flow steps, median ms: ${steps}`);
  }
  if (r.stepCpu) {
    const cells = Object.entries(r.stepCpu)
      .map(([what, c]) => `${what} ${c.serverMs} (loop ${c.serverLoopMs}) / ${c.postgresMs}`)
      .join('; ');
    console.log(`CPU ms per request, one sign-in at a time, server (loop) / PostgreSQL: ${cells}`);
  }
  console.log(
    "CPU: % of one core; loop = the server's event-loop thread; other = the rest of the machine",
  );
  for (const f of [
    r.signIns?.codeFlow,
    r.signIns?.passwordGrants,
    r.clientCredentials,
    r.refreshProvider,
    r.refreshPassword,
  ]) {
    for (const [failure, n] of Object.entries(f?.failures ?? {}))
      console.log(`  ${n} × ${failure}`);
  }
  console.log(`\n${targets.join('\n')}`);
  console.log(`results: ${fromRoot(resultsFile)}`);
}
