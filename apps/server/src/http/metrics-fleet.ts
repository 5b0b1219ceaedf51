import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * `WORKERS=N`: the processes share one port and node:cluster hands each connection to one of
 * them, so a scrape reaching one process would see a random share of the counters, and a
 * counter would seem to fall from one scrape to the next. The worker that is scraped asks the
 * primary instead, which gathers every worker's registry (prom-client's cluster messages) and
 * answers the fleet's sums: counters and histograms add up, pool and stream gauges give the
 * fleet's totals, and the outbox gauges, which every process reads from the same table, their
 * largest value.
 */

const ASK = 'tenant-console:fleet-metrics';
const ANSWER = 'tenant-console:fleet-metrics-answer';
const ANSWER_TIMEOUT_MS = 10_000;

interface Message {
  type?: unknown;
  id?: number;
  text?: string;
  error?: string;
}

/** In the primary: answers a worker asking for the whole fleet's metrics. */
export function answerFleetMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Message) => {
    if (message?.type !== ASK) return;
    const answer = (fields: Partial<Message>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...fields });
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : 'failed' }),
    );
  });
}

/**
 * In a worker: lets the primary read `register`, and answers a function that asks the
 * primary for the fleet's metrics in Prometheus's text format.
 */
export function fleetMetrics(register: Registry): () => Promise<string> {
  AggregatorRegistry.setRegistries([register]);
  // Constructing one adds prom-client's listener that answers the primary's requests.
  new AggregatorRegistry();
  const waiting = new Map<number, (message: Message) => void>();
  let next = 0;
  process.on('message', (message: Message) => {
    if (message?.type === ANSWER && typeof message.id === 'number') {
      waiting.get(message.id)?.(message);
    }
  });
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
