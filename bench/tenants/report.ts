/** The tenants benchmark's figures: per shape, the two sizes side by side, and their ratios. */
import type { LoadResult } from './load';
import type { Measured } from './measure';
import { LARGE, round, SMALL, TARGETS } from './settings';

export const REFERENCE = 'reference';
export const GROWN = 'grown';

const cpuOf = (r: LoadResult) =>
  round((r.cpuMsPerRequest?.server ?? 0) + (r.cpuMsPerRequest?.postgres ?? 0), 2);
const ratio = (a: number, b: number) => round(a / b, 2);

/**
 * `before`: both servers at SMALL tenants; `after`: the grown one at LARGE, the reference still
 * at SMALL, measured by turns. The judged ratios compare the two of `after` (same minutes); the
 * grown server against itself before growing, and the two servers at equal sizes (how far
 * apart the machine's noise alone puts them), are reported beside them.
 */
export function figures(names: string[], before: Measured, after: Measured) {
  return names.map((shape) => {
    const small = after.get(REFERENCE)!.get(shape)!;
    const large = after.get(GROWN)!.get(shape)!;
    const grownBefore = before.get(GROWN)!.get(shape)!;
    const referenceBefore = before.get(REFERENCE)!.get(shape)!;
    const p50Ratio = ratio(large.latencyMs.p50, small.latencyMs.p50);
    const rpsRatio = ratio(small.requestsPerSecond, large.requestsPerSecond);
    return {
      shape,
      small,
      large,
      p50Ratio,
      rpsRatio,
      cpuRatio: ratio(cpuOf(large), cpuOf(small)),
      met: p50Ratio <= TARGETS.ratio && rpsRatio <= TARGETS.ratio,
      grownBefore,
      referenceBefore,
      /** The grown server at LARGE against itself at SMALL, minutes earlier. */
      sequentialP50Ratio: ratio(large.latencyMs.p50, grownBefore.latencyMs.p50),
      /** Both servers at SMALL: the ratio the machine's noise alone gives. */
      equalSizesP50Ratio: ratio(grownBefore.latencyMs.p50, referenceBefore.latencyMs.p50),
    };
  });
}

export function listTable(rows: ReturnType<typeof figures>): string[][] {
  const ms = (v: number) => v.toFixed(2);
  return [
    [
      'shape',
      `p50 ${SMALL}`,
      `p50 ${LARGE}`,
      'ratio',
      `p99 ${SMALL}`,
      `p99 ${LARGE}`,
      `req/s ${SMALL}`,
      `req/s ${LARGE}`,
      'ratio',
      `CPU ms ${SMALL}→${LARGE}`,
      'ratio',
      'grown p50 ratio',
      'equal sizes p50 ratio',
    ],
    ...rows.map((m) => [
      m.shape,
      ms(m.small.latencyMs.p50),
      ms(m.large.latencyMs.p50),
      String(m.p50Ratio),
      ms(m.small.latencyMs.p99),
      ms(m.large.latencyMs.p99),
      String(m.small.requestsPerSecond),
      String(m.large.requestsPerSecond),
      String(m.rpsRatio),
      `${cpuOf(m.small)}→${cpuOf(m.large)}`,
      String(m.cpuRatio),
      String(m.sequentialP50Ratio),
      String(m.equalSizesP50Ratio),
    ]),
  ];
}

export function creationTable(created: Record<string, LoadResult>): string[][] {
  return [
    ['creation', 'tenants/s', 'p50 ms', 'p99 ms', 'non-2xx', 'server ms', 'PostgreSQL ms'],
    ...Object.entries(created).map(([name, r]) => [
      name,
      String(r.requestsPerSecond),
      r.latencyMs.p50.toFixed(2),
      r.latencyMs.p99.toFixed(2),
      String(r.non2xx),
      String(r.cpuMsPerRequest?.server),
      String(r.cpuMsPerRequest?.postgres),
    ]),
  ];
}
