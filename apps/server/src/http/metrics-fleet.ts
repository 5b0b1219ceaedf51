import cluster, { type Worker } from 'node:cluster';
import {
  AggregatorRegistry,
  Gauge,
  type MetricObjectWithValues,
  type MetricValue,
  type Registry,
} from 'prom-client';

/** One worker's registry, as `getMetricsAsJSON` gives it. */
type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

/**
 * `WORKERS=N`: the processes share one port and node:cluster hands each connection to one of
 * them, so a scrape reaching one process would see a random share of the counters, and a
 * counter would seem to fall from one scrape to the next. The worker that is scraped asks the
 * primary instead, which gathers every worker's registry and answers the fleet's sums:
 * counters and histograms add up, pool and stream gauges give the fleet's totals, and the
 * outbox gauges, which every process reads from the same table, their largest value
 * (prom-client's aggregation).
 *
 * A worker that is starting (not yet reporting) or stuck is left out rather than failing
 * the scrape: the answer holds what the live workers report, and two gauges say how many
 * workers there are and how many reported. (prom-client's own cluster gathering fails the
 * whole scrape after 5 s when any worker does not answer.)
 */

const ASK = 'tenant-console:fleet-metrics';
const ANSWER = 'tenant-console:fleet-metrics-answer';
const REPORTING = 'tenant-console:metrics-reporting';
const GATHER = 'tenant-console:metrics-gather';
const GATHERED = 'tenant-console:metrics-gathered';
/** How long the primary waits for one worker's registry: a live one answers in milliseconds. */
const GATHER_TIMEOUT_MS = 2_000;
const ANSWER_TIMEOUT_MS = 10_000;

interface Message {
  type?: unknown;
  id?: number;
  text?: string;
  error?: string;
  metrics?: WorkerMetrics;
}

/** In the primary: answers a worker asking for the whole fleet's metrics. */
export function answerFleetMetrics(): void {
  const reporting = new Set<Worker>();
  const pending = new Map<number, (metrics: WorkerMetrics) => void>();
  let next = 0;
  cluster.on('exit', (worker) => reporting.delete(worker));
  cluster.on('message', (worker, message: Message) => {
    if (message?.type === REPORTING) reporting.add(worker);
    if (message?.type === GATHERED && typeof message.id === 'number') {
      pending.get(message.id)?.(message.metrics ?? []);
    }
    if (message?.type !== ASK) return;
    const answer = (fields: Partial<Message>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...fields });
    };
    const ask = (target: Worker) =>
      new Promise<WorkerMetrics | undefined>((resolve) => {
        const id = next++;
        const timer = setTimeout(() => settle(undefined), GATHER_TIMEOUT_MS);
        const settle = (metrics: WorkerMetrics | undefined) => {
          clearTimeout(timer);
          pending.delete(id);
          resolve(metrics);
        };
        pending.set(id, settle);
        if (target.isConnected()) target.send({ type: GATHER, id });
      });
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    Promise.all([...reporting].map(ask))
      .then((answers) => {
        const gathered = answers.filter(
          (metrics): metrics is WorkerMetrics => metrics !== undefined,
        );
        return fleetText(gathered, workers.length);
      })
      .then(
        (text) => answer({ text }),
        (error: unknown) => answer({ error: error instanceof Error ? error.message : 'failed' }),
      );
  });
}

/** The reporting workers' registries added up, and how many of how many reported. */
async function fleetText(gathered: WorkerMetrics[], workers: number): Promise<string> {
  const registry = AggregatorRegistry.aggregate(gathered);
  new Gauge({
    name: 'tenant_console_fleet_workers',
    help: 'Worker processes of the fleet, started or starting',
    registers: [registry],
  }).set(workers);
  new Gauge({
    name: 'tenant_console_fleet_workers_reporting',
    help: 'Worker processes whose metrics this scrape holds (the others are starting or stuck)',
    registers: [registry],
  }).set(gathered.length);
  return registry.metrics();
}

/**
 * In a worker: lets the primary read `register`, and answers a function that asks the
 * primary for the fleet's metrics in Prometheus's text format.
 */
export function fleetMetrics(register: Registry): () => Promise<string> {
  const waiting = new Map<number, (message: Message) => void>();
  let next = 0;
  process.on('message', (message: Message) => {
    if (message?.type === ANSWER && typeof message.id === 'number') {
      waiting.get(message.id)?.(message);
    }
    if (message?.type === GATHER && typeof message.id === 'number') {
      const id = message.id;
      void register.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: GATHERED, id, metrics }),
        () => process.send?.({ type: GATHERED, id }),
      );
    }
  });
  process.send!({ type: REPORTING });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(
        () => settle({ error: 'the primary did not answer' }),
        ANSWER_TIMEOUT_MS,
      );
      const settle = (message: Message) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (message.text !== undefined) resolve(message.text);
        else reject(new Error(`fleet metrics not gathered: ${message.error ?? 'no answer'}`));
      };
      waiting.set(id, settle);
      process.send!({ type: ASK, id });
    });
}
