/**
 * `pnpm bench:telemetry`: what `compactionTelemetry()` of `@compaction/opentelemetry` costs the Compactor when
 * the OpenTelemetry API is installed and no SDK is registered (how most applications run it until they export):
 * each workload without observers and with the telemetry observer, in turns, in one process, as medians. Saves
 * bench/results/telemetry.json and writes the telemetry figures of bench/README.md from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import {
  type CompactionStrategy,
  type CompactorObserver,
  createCompactor,
  createPipeline,
  type Message,
} from '@compaction/core';
import { compactionTelemetry } from '@compaction/opentelemetry';
import { createSummarization } from '@compaction/strategy-summarization';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { codingConversation, createMockProvider } from '@compaction/testing';
import { readmePath, withGeneratedSection } from '../readme/generated-section.js';
import { median } from '../strategies/timing.js';
import { telemetryReadmeFigures, telemetrySectionName } from './readme-figures.js';
import { type TelemetryResults, type TelemetryWorkload, telemetryResultsFile } from './telemetry-results.js';

const samples = 61;
const warmUpSamples = 5;
const history = codingConversation(20, 2000);

/** A workload: `calls` calls of `run` on a Compactor made with the given observers. */
interface Workload {
  name: string;
  calls: number;
  make: (observers: CompactorObserver[]) => () => Promise<unknown>;
}

/** A summarizer that answers at once, so the bench times the Compactor and not a model. */
function instantSummarization(): CompactionStrategy {
  const answer = { text: 'The agent read the files and fixed the test.', finishReason: 'stop' as const };
  const provider = createMockProvider({ responses: [] });
  return createSummarization({
    provider: { ...provider, generate: async () => answer },
    template: 'Summarize:\n{{conversation}}',
  });
}

const window = (share: number) => ({
  contextWindow: Math.ceil(tokensOf(history) * share),
  reservedOutputTokens: 0,
});

function tokensOf(messages: readonly Message[]): number {
  return createCompactor({
    strategy: createToolResultTruncation(),
    budget: { contextWindow: 1e9 },
  }).counter.count(messages);
}

const workloads: Workload[] = [
  {
    // The call made before every model call: under the trigger, it counts and returns the history.
    name: '`prepare` under the trigger (40 messages)',
    calls: 200,
    make: (observers) => {
      const compactor = createCompactor({
        strategy: createToolResultTruncation(),
        budget: window(4),
        observers,
      });
      return () => compactor.prepare(history);
    },
  },
  {
    name: '`compact` with tool-result truncation',
    calls: 20,
    make: (observers) => {
      const compactor = createCompactor({
        strategy: createToolResultTruncation({ mode: 'mask' }),
        budget: window(0.9),
        observers,
      });
      return () => compactor.compact(history);
    },
  },
  {
    name: '`compact` with truncation then summarization (instant summarizer)',
    calls: 10,
    make: (observers) => {
      const strategy = createPipeline([createToolResultTruncation({ mode: 'mask' }), instantSummarization()]);
      const compactor = createCompactor({ strategy, budget: { ...window(0.9), target: 0.12 }, observers });
      return () => compactor.compact(history);
    },
  },
];

/** Milliseconds of one call: `calls` calls run one after another, the total divided. */
async function sample(run: () => Promise<unknown>, calls: number): Promise<number> {
  const start = performance.now();
  for (let call = 0; call < calls; call++) await run();
  return (performance.now() - start) / calls;
}

const loadAverage = loadavg()[0]!;
const telemetry = await compactionTelemetry();
const measured: TelemetryWorkload[] = [];
for (const workload of workloads) {
  const plain = workload.make([]);
  const observed = workload.make([telemetry]);
  const times = { plain: [] as number[], telemetry: [] as number[] };
  const ratios: number[] = [];
  for (let round = 0; round < warmUpSamples + samples; round++) {
    // In turns, the order swapped each round, so neither variant always runs on a warmer heap.
    const order = round % 2 === 0 ? (['plain', 'telemetry'] as const) : (['telemetry', 'plain'] as const);
    for (const variant of order) {
      const milliseconds = await sample(variant === 'plain' ? plain : observed, workload.calls);
      if (round >= warmUpSamples) times[variant].push(milliseconds);
    }
    if (round >= warmUpSamples) ratios.push(times.telemetry.at(-1)! / times.plain.at(-1)!);
  }
  measured.push({
    name: workload.name,
    calls: workload.calls,
    plainMilliseconds: median(times.plain),
    telemetryMilliseconds: median(times.telemetry),
    ratio: median(ratios),
  });
}

// The API's own package.json is not in its exports: it is read beside the entry the bench loaded.
const apiEntry = createRequire(import.meta.url).resolve('@opentelemetry/api');
const apiRoot = apiEntry.slice(0, apiEntry.lastIndexOf('/build/'));
const apiPackage = JSON.parse(readFileSync(`${apiRoot}/package.json`, 'utf8')) as { version: string };
const results: TelemetryResults = {
  node: process.version,
  cores: cpus().length,
  loadAverage,
  date: new Date().toISOString().slice(0, 10),
  api: apiPackage.version,
  samples,
  workloads: measured,
};
telemetryResultsFile.save(results);
const figures = telemetryReadmeFigures(results);
writeFileSync(
  readmePath,
  withGeneratedSection(readFileSync(readmePath, 'utf8'), telemetrySectionName, figures),
);
console.log(figures);
