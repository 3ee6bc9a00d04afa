import { describe, expect, it } from 'vitest';
import {
  type ConformancePropertyName,
  type ConformanceSettings,
  checkConformanceProperty,
  conformanceProperties,
  defaultConformanceRuns,
} from './conformance.js';
import { describeTally } from './conformance-tally.js';
import {
  checkProviderContracts,
  defaultTargetShares,
  describeProviderContractOutcome,
  type ProviderContractSettings,
} from './provider-contract-conformance.js';
import { checkTargetFill, defaultTargetFillRuns, type TargetFillSettings } from './target-fill-property.js';

/**
 * Registers the conformance suite as Vitest tests: one test per property, each over `numRuns` generated
 * conversations (default 1,000). The progress property prints how many cases were compacted, e.g.
 * "pruning: 187 of 200 cases compacted (193 over their target)". A strategy package's whole conformance test is one call:
 *
 * ```ts
 * import { describeConformance } from '@compaction/testing/vitest';
 * describeConformance('pruning', { strategy: () => createPruning() });
 * ```
 */
export function describeConformance(name: string, settings: ConformanceSettings): void {
  const numRuns = settings.numRuns ?? defaultConformanceRuns;
  describe(`${name} conformance (${numRuns} runs per property)`, () => {
    for (const [property, description] of Object.entries(conformanceProperties)) {
      it(`${property}: ${description}`, { timeout: 600_000 }, async () => {
        const outcome = await checkConformanceProperty(property as ConformancePropertyName, settings);
        if (outcome.tally !== undefined) console.log(describeTally(name, outcome.tally));
        expect(outcome.failure, outcome.failure).toBeUndefined();
        expect(outcome.passed).toBe(true);
      });
    }
  });
}

/**
 * Registers the provider-contract check as Vitest tests: one test per provider format and target share, each
 * over `numRuns` generated requests (see {@link checkProviderContracts}). Each test prints how many requests
 * were actually compacted, and fails when none was: a check that never compacts proves nothing.
 */
export function describeProviderContracts(name: string, settings: ProviderContractSettings): void {
  describe(`${name} provider contracts`, () => {
    for (const converters of settings.converters) {
      for (const targetShare of settings.targetShares ?? defaultTargetShares) {
        it(`${converters.format} at ${Math.round(targetShare * 100)}%`, { timeout: 600_000 }, async () => {
          const [outcome] = await checkProviderContracts({
            ...settings,
            converters: [converters],
            targetShares: [targetShare],
          });
          console.log(`${name}: ${describeProviderContractOutcome(outcome!)}`);
          expect(outcome!.failure, outcome!.failure).toBeUndefined();
          expect(outcome!.compacted).toBeGreaterThan(0);
        });
      }
    }
  });
}

export { type CompactionScheduleRun, expectCompactionSchedule } from './compaction-schedule.js';
export {
  type ConversationRecoverySettings,
  describeConversationRecovery,
  type RecoverableConversation,
} from './conversation-recovery-suite.js';
export { describeProviderTransport, type ProviderTransportSettings } from './provider-transport-suite.js';
export {
  checkScriptedConversationProperty,
  type ScriptedConversation,
  type ScriptedConversationPropertySettings,
} from './scripted-conversation-property.js';
export {
  describeStoreConformance,
  type StoreConformanceSettings,
  sampleArchivingRecord,
  sampleCompactionRecord,
} from './store-suite.js';
export {
  checkTranscriptPlans,
  describeTranscriptPlans,
  type TranscriptPlansOutcome,
  withPlanTurns,
} from './transcript-plans.js';
export { describeTranscriptTargets, requiredTokens, targetShares } from './transcript-targets.js';

/**
 * Registers the target-fill property ({@link checkTargetFill}) as one Vitest test: on generated histories,
 * most with one huge tool result, a reachable target is met, and not by ending far below it.
 */
export function describeTargetFill(name: string, settings: TargetFillSettings): void {
  const numRuns = settings.numRuns ?? defaultTargetFillRuns;
  const archiving = settings.archive === true ? ', archiving' : '';
  it(`${name} meets reachable targets without ending far below them (${numRuns} runs${archiving})`, {
    timeout: 600_000,
  }, async () => {
    const failure = await checkTargetFill(settings);
    expect(failure, failure).toBeUndefined();
  });
}
