/** The saved results of the benchmarks in bench/results, which the reports and README figures are written from. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** bench/results. */
export const resultsDirectory = resolve(import.meta.dirname, '../results');

/** One results file: where it is, and how to read and save what it holds. */
export interface ResultsFile<Results> {
  readonly path: string;
  load(): Results;
  /** Saves `results` as indented JSON; the file is replaced whole (a rename), never left half written. */
  save(results: Results): void;
}

/** The results file `name` in bench/results, holding `Results`. */
export function resultsFile<Results>(name: string): ResultsFile<Results> {
  const path = resolve(resultsDirectory, name);
  return {
    path,
    load: () => JSON.parse(readFileSync(path, 'utf8')) as Results,
    save: (results) => {
      mkdirSync(resultsDirectory, { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(results, null, 2)}\n`);
      renameSync(temporary, path);
    },
  };
}
