// `pnpm contracts [--runs N] [--seed S] [--only NAME] [--skip NAME]`: every strategy through every provider
// converter, on N generated requests per format and target share (default 3,334: 10,002 per strategy and
// format over the three shares) and on every shared transcript, with each request
// that comes out checked against the provider's documented contract. Prints one line per strategy, format
// and share, and exits 1 when any request broke the contract.
import {
  checkProviderContractCase,
  checkProviderContracts,
  defaultTargetShares,
  describeProviderContractOutcome,
} from '@compaction/testing';
import { loadTranscripts, missingTranscriptsMessage } from '@compaction/testing/transcripts';
import { providerConverters } from './provider-converters.js';
import { readRunOptions } from './run-options.js';
import { requestOf } from './transcript-requests.js';

const { runs: numRuns, seed, strategies } = readRunOptions(3334, ['skip']);
let failures = 0;

console.log(`Generated requests: ${numRuns} per strategy, format and target share (seed ${seed})`);
for (const { name, strategy, fallback } of strategies) {
  const started = performance.now();
  const outcomes = await checkProviderContracts({
    strategy,
    ...(fallback === undefined ? {} : { fallback }),
    converters: providerConverters,
    numRuns,
    seed,
  });
  for (const outcome of outcomes) {
    console.log(`${name}: ${describeProviderContractOutcome(outcome)}`);
    if (outcome.failure !== undefined) {
      failures++;
      console.log(outcome.failure);
    }
  }
  console.log(`  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

const transcripts = loadTranscripts();
if (transcripts.length === 0) console.log(`\nSkipped the transcripts: ${missingTranscriptsMessage}`);
else console.log(`\nShared transcripts: ${transcripts.length}`);
for (const { name, strategy, fallback } of strategies) {
  for (const converters of providerConverters) {
    let checked = 0;
    let compacted = 0;
    let unreachable = 0;
    for (const transcript of transcripts) {
      const request = requestOf(converters.format, transcript.messages);
      for (const targetShare of defaultTargetShares) {
        const verdict = await checkProviderContractCase(
          { strategy, ...(fallback === undefined ? {} : { fallback }) },
          converters,
          request,
          targetShare,
        );
        checked++;
        if (verdict.compacted) compacted++;
        if (verdict.unreachable) unreachable++;
        if (verdict.problem !== undefined) {
          failures++;
          console.log(
            `${name}, ${converters.format}, ${transcript.name} at ${targetShare}: ${verdict.problem}`,
          );
        }
      }
    }
    if (transcripts.length > 0) {
      console.log(
        `${name}: ${converters.format} on transcripts: ${checked} runs, ${compacted} compacted, ${unreachable} unreachable`,
      );
    }
  }
}
console.log(failures === 0 ? '\nNo request broke a provider contract.' : `\n${failures} failing checks.`);
process.exitCode = failures === 0 ? 0 : 1;
