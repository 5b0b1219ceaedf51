/**
 * Reads asked for in the same turn of the event loop, started together once that turn is
 * over. Each read starts after every request it answers had arrived, so no answer is older
 * than a write its client saw acknowledged, in this process or any other: nothing is kept
 * between turns, and there is nothing to invalidate. Under load many requests arrive per turn
 * and share one round trip (and equal keys one answer); a request alone waits for nothing but
 * its own read.
 */

interface Pending<V> {
  promise: Promise<V>;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

function pending<V>(): Pending<V> {
  let resolve!: (value: V) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<V>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Gathers the keys asked for in one turn and hands them to `start` after it. */
function perTurn<K, V>(start: (batch: Map<K, Pending<V>>) => void): (key: K) => Promise<V> {
  let gathering: Map<K, Pending<V>> | undefined;
  return (key) => {
    let batch = gathering;
    if (!batch) {
      const started = (batch = gathering = new Map());
      // After the I/O callbacks of this turn: every request read in it has asked by then.
      setImmediate(() => {
        gathering = undefined;
        start(started);
      });
    }
    let entry = batch.get(key);
    if (!entry) batch.set(key, (entry = pending<V>()));
    return entry.promise;
  };
}

/**
 * One statement for the turn's keys: `load` gets every distinct key asked for and answers
 * those it found (undefined for the others). A failure fails every key of the batch.
 */
export function batchedReads<K, V>(
  load: (keys: K[]) => Promise<ReadonlyMap<K, V>>,
): (key: K) => Promise<V | undefined> {
  return perTurn<K, V | undefined>((batch) => {
    Promise.resolve()
      .then(() => load([...batch.keys()]))
      .then(
        (found) => {
          for (const [key, entry] of batch) entry.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const entry of batch.values()) entry.reject(error);
        },
      );
  });
}

/** A lookup of one key at a time, shared by the requests of a turn that ask for equal keys. */
export function sharedReads<K, V>(lookUp: (key: K) => Promise<V>): (key: K) => Promise<V> {
  return perTurn<K, V>((batch) => {
    for (const [key, entry] of batch) {
      Promise.resolve()
        .then(() => lookUp(key))
        .then(entry.resolve, entry.reject);
    }
  });
}
