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

/**
 * Rounds of `runs` conversations drawn at most, until one is compacted: tool-result truncation alone has nothing
 * to cut where every tool result is short, and a few conversations in a row can all be such (seed 668614400:
 * four Anthropic ones). Each round goes on from the last one's seeds, so a seed still replays the whole test.
 */
const maximumRounds = 5;

describe.each(strategiesUnderTest)('$name through the AI SDK', (strategy) => {
  it.each(aiSdkTargets)(
    'sends %s requests the API accepts, with nothing lost that must stay',
    async (target) => {
      let compacted = 0;
      for (let round = 0; round < maximumRounds && compacted === 0; round++) {
        const roundSeed = (seed + round * runs) % 2 ** 31;
        const report = await checkAiSdkContracts({
          strategies: [strategy],
          targets: [target],
          runs,
          seed: roundSeed,
        });
        for (const outcome of report.outcomes) console.log(describeAiSdkOutcome(outcome));

        const baseline = report.baselines.get(target)!;
        expect(baseline.violations, 'the uncompacted conversations are valid requests').toEqual(new Map());
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
        compacted += report.outcomes.reduce((sum, outcome) => sum + outcome.compacted, 0);
      }
      expect(compacted, `no conversation compacted in ${maximumRounds * runs}`).toBeGreaterThan(0);
    },
  );
});
