import { describeProviderContracts } from '@compaction/testing/vitest';
import { providerConverters } from './provider-converters.js';
import { strategiesUnderTest } from './strategies-under-test.js';

// Every strategy through every converter at 50%, 25% and 10% of each generated request. `pnpm contracts`
// runs the same check over 10,000 requests per strategy, format and target.
const numRuns = Number(process.env.CONTRACT_RUNS ?? 40);

for (const { name, strategy, fallback } of strategiesUnderTest) {
  describeProviderContracts(name, {
    strategy,
    ...(fallback === undefined ? {} : { fallback }),
    converters: providerConverters,
    numRuns,
  });
}
