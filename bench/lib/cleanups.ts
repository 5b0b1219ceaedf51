/**
 * What a benchmark must undo (stop its server, drop its database, remove a folder), also when
 * it is interrupted: a benchmark stopped with Ctrl-C would otherwise leave a database of
 * 100,000 users behind on the shared PostgreSQL.
 */
type Step = () => unknown;

const active = new Set<Cleanups>();
let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the server and removing its database…`);
      void Promise.all([...active].map((cleanups) => cleanups.run())).finally(() =>
        process.exit(130),
      );
    });
  }
}

export class Cleanups {
  private steps: Step[] = [];

  constructor() {
    active.add(this);
    listen();
  }

  /** Runs before the steps added earlier: a server stops before its database is dropped. */
  add(step: Step) {
    this.steps.unshift(step);
  }

  /** Runs every step once, even when one fails. */
  async run() {
    active.delete(this);
    for (const step of this.steps.splice(0)) {
      try {
        await step();
      } catch (error) {
        console.error('cleanup:', error);
      }
    }
  }
}
