/** The list shapes measured on several servers by turns, and tenant creation. */
import os from 'node:os';
import { runLoad, summarize, type LoadResult, type Sample } from './load';
import { CONNECTIONS, CREATE_CONNECTIONS, CREATIONS, DURATION, ROUNDS, WARMUP } from './settings';
import { uncached, type Shape } from './shapes';
import type { Side } from './side';

export type Measured = Map<string, Map<string, LoadResult>>;

let sent = 0;

function load(side: Side, shape: Shape) {
  const total = side.total;
  return {
    url: `${side.url}/api/v1.0/tenants/page`,
    token: side.token,
    connections: CONNECTIONS,
    body: (n: number) => uncached(shape.request(n, total), sent + n),
  };
}

/**
 * Every shape on every side: each for WARMUP seconds unmeasured, then ROUNDS rounds in which
 * each shape is measured for DURATION seconds on one side right after the other (which side
 * goes first alternates): short turns, many of them, so that the machine's other load weighs
 * on the sides alike. A shape's figures pool all its turns. Answers side label → shape name →
 * figures.
 */
export async function measureShapes(sides: Side[], shapes: Shape[]): Promise<Measured> {
  for (const side of sides) {
    for (const shape of shapes) {
      if (WARMUP > 0) {
        sent += (await runLoad({ ...load(side, shape), seconds: WARMUP })).latencies.length;
      }
    }
  }
  const runs = new Map(sides.map((side) => [side.label, new Map<string, Sample[]>()]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    const sizes = sides.map((side) => `${side.label} ${side.total}`).join(', ');
    if (round % 4 === 1) {
      console.error(`  round ${round}: ${sizes} (load ${os.loadavg()[0]!.toFixed(2)})`);
    }
    for (const shape of shapes) {
      const order = round % 2 === 1 ? sides : [...sides].reverse();
      for (const side of order) {
        const result = await runLoad({ ...load(side, shape), seconds: DURATION, cpu: side.cpu });
        sent += result.latencies.length;
        if (result.non2xx > 0) throw new Error(`${shape.name}: ${result.firstFailure}`);
        const byShape = runs.get(side.label)!;
        byShape.set(shape.name, [...(byShape.get(shape.name) ?? []), result]);
      }
    }
  }
  return new Map(
    [...runs].map(([label, byShape]) => [
      label,
      new Map([...byShape].map(([name, samples]) => [name, summarize(samples)])),
    ]),
  );
}

/** Tenants made through the API, each a new name and domain, with or without an invitation. */
export async function measureCreation(side: Side, invite: boolean): Promise<LoadResult> {
  const tag = invite ? 'i' : 'p';
  console.error(`  creating ${CREATIONS} tenants${invite ? ' with an invitation' : ''}`);
  const sample = await runLoad({
    url: `${side.url}/api/v1.0/tenants/create`,
    token: side.token,
    connections: CREATE_CONNECTIONS,
    total: CREATIONS,
    cpu: side.cpu,
    body: (n) => ({
      name: `made-${tag}${n}`,
      domain: `made-${tag}${n}.bench.example.test`,
      ...(invite && { adminEmail: `admin.${tag}${n}@bench.example.test` }),
    }),
  });
  if (sample.non2xx > 0) console.error(`  refused: ${sample.firstFailure}`);
  return summarize([sample]);
}
