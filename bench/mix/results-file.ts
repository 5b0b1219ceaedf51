/**
 * bench/results/mix.json holds the latest result of each scenario on each engine: a run of one
 * scenario replaces that scenario's entry and keeps the others, so the scenarios may be measured
 * one at a time (the 1,000,000-user one takes long) and still be read side by side.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { root } from '../lib/paths';

interface Entry {
  scenario: string;
  engine: string;
}

const git = (...args: string[]) =>
  spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';

/** Where and on what a result was measured: the commit, and whether the server differed from it. */
export function provenance() {
  return {
    date: new Date().toISOString(),
    commit: git('rev-parse', '--short', 'HEAD'),
    uncommittedServerChanges:
      git('status', '--porcelain', '--', 'apps/server/src', 'packages/contract/src') !== '',
    machine: { cpus: os.availableParallelism(), node: process.version },
  };
}

export function saveResult<T extends Entry>(file: string, result: T) {
  let scenarios: Entry[] = [];
  if (existsSync(file)) {
    try {
      scenarios =
        (JSON.parse(readFileSync(file, 'utf8')) as { scenarios?: Entry[] }).scenarios ?? [];
    } catch {
      scenarios = [];
    }
  }
  const others = scenarios.filter(
    (entry) => entry.scenario !== result.scenario || entry.engine !== result.engine,
  );
  writeFileSync(file, JSON.stringify({ scenarios: [...others, result] }, null, 2) + '\n');
}
