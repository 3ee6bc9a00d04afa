import { describe, expect, it } from 'vitest';
import { strategiesUnderTest } from '../strategies-under-test.js';
import { checkAiSdkContracts, describeAiSdkOutcome, totalsOf } from './ai-sdk-contracts.js';
import { aiSdkTargets } from './ai-sdk-target.js';

// Every strategy through `generateText` (with `compactionPrepareStep`, then with the compaction middleware) on
// generated conversations of each target, at 50%, 25% and 10%. `pnpm --filter @compaction/contracts
// check:ai-sdk` runs the same check on many more conversations.
const runs = Number(process.env.AI_SDK_CONTRACT_RUNS ?? 4);
const seed = Number(process.env.AI_SDK_CONTRACT_SEED ?? Date.now() % 2 ** 31);
console.log(
  `AI SDK contracts: ${runs} conversations per strategy and target, seed ${seed} (AI_SDK_CONTRACT_SEED)`,
);

describe.each(strategiesUnderTest)('$name through the AI SDK', (strategy) => {
  it.each(aiSdkTargets)(
    'sends %s requests the API accepts, with nothing lost that must stay',
    async (target) => {
      const report = await checkAiSdkContracts({ strategies: [strategy], targets: [target], runs, seed });
      for (const outcome of report.outcomes) console.log(describeAiSdkOutcome(outcome));

      const baseline = report.baselines.get(target)!;
      expect(baseline.violations, 'the uncompacted conversations are valid requests').toEqual(new Map());
      expect(report.outcomes.reduce((sum, outcome) => sum + outcome.compacted, 0)).toBeGreaterThan(0);
      // Violations of a known cause are counted, not failed: each has an `it.fails` in known-problems.test.ts.
      const unexplained = report.outcomes.flatMap((outcome) =>
        [...outcome.unexplained].flatMap(([, tally]) =>
          tally.examples.map(
            ({ seed, violation }) =>
              `${outcome.integration} at ${outcome.targetShare} (seed ${seed}): [${violation.rule}] ` +
              `${violation.path}: ${violation.message}`,
          ),
        ),
      );
      expect(
        unexplained,
        `violations by rule: ${JSON.stringify([...totalsOf(report, 'unexplained')])}`,
      ).toEqual([]);
    },
  );
});
