import { type ContractViolation, defaultTargetShares } from '@compaction/testing';
import fc from 'fast-check';
import type { StrategyUnderTest } from '../strategies-under-test.js';
import { type AiSdkCaseVerdict, checkAiSdkCase, runBaseline } from './ai-sdk-contract-case.js';
import { aiSdkConversationArbitrary } from './ai-sdk-conversation.js';
import type { ConversationPlanSettings } from './ai-sdk-conversation-plan.js';
import { type AiSdkTarget, aiSdkTargets } from './ai-sdk-target.js';
import { type AiSdkIntegration, aiSdkIntegrations } from './generate-text-call.js';
import { LoopbackProvider } from './loopback-provider.js';

/** Settings of {@link checkAiSdkContracts}. */
export interface AiSdkContractSettings {
  strategies: readonly StrategyUnderTest[];
  /** Generated conversations per target. */
  runs: number;
  /** Conversation `i` of each target is generated with seed `seed + i`, so any one can be replayed alone. */
  seed: number;
  targets?: readonly AiSdkTarget[];
  integrations?: readonly AiSdkIntegration[];
  targetShares?: readonly number[];
  conversations?: ConversationPlanSettings;
  /** Called after each conversation, for progress output. */
  onConversation?: (target: AiSdkTarget, index: number) => void;
}

/** Violations of one rule: how many, and the first few, with the seed of the conversation they came from. */
export interface RuleTally {
  count: number;
  examples: Array<{ seed: number; violation: ContractViolation }>;
}

/** What one strategy, target, integration and target share came to. */
export interface AiSdkOutcome {
  strategy: string;
  target: AiSdkTarget;
  integration: AiSdkIntegration;
  targetShare: number;
  runs: number;
  /** Runs in which at least one compaction happened. */
  compacted: number;
  /** Runs in which the budget could not be reached. */
  unreachable: number;
  /** Every violation, by rule. */
  violations: Map<string, RuleTally>;
  /** Violations of no known cause, by rule: the failures. */
  unexplained: Map<string, RuleTally>;
  /** Violations of a known cause, by problem id (see `known-problems.ts`). */
  known: Map<string, RuleTally>;
}

/** Everything one check came to. */
export interface AiSdkContractReport {
  seed: number;
  /** Per target: conversations whose uncompacted requests were already refused (not checked further). */
  baselines: Map<AiSdkTarget, { runs: number; violations: Map<string, RuleTally> }>;
  outcomes: AiSdkOutcome[];
}

const examplesKept = 3;

/**
 * The AI SDK path checked against the provider contracts: for each target, `runs` generated conversations go
 * through `generateText` without compaction (the baseline), then with every strategy, integration and target
 * share, and every request sent is checked (see {@link checkAiSdkCase}). Nothing stops at the first
 * violation: the report counts them by rule.
 */
export async function checkAiSdkContracts(settings: AiSdkContractSettings): Promise<AiSdkContractReport> {
  const integrations = settings.integrations ?? aiSdkIntegrations;
  const shares = settings.targetShares ?? defaultTargetShares;
  const report: AiSdkContractReport = { seed: settings.seed, baselines: new Map(), outcomes: [] };
  const outcomes = new Map<string, AiSdkOutcome>();
  const outcomeOf = (
    strategy: string,
    target: AiSdkTarget,
    integration: AiSdkIntegration,
    targetShare: number,
  ) => {
    const key = JSON.stringify([strategy, target, integration, targetShare]);
    let outcome = outcomes.get(key);
    if (outcome === undefined) {
      outcome = { strategy, target, integration, targetShare, ...emptyCounts() };
      outcomes.set(key, outcome);
      report.outcomes.push(outcome);
    }
    return outcome;
  };
  const provider = await LoopbackProvider.start();
  try {
    for (const target of settings.targets ?? aiSdkTargets) {
      const baselines = { runs: 0, violations: new Map<string, RuleTally>() };
      report.baselines.set(target, baselines);
      const arbitrary = aiSdkConversationArbitrary(target, settings.conversations);
      for (let index = 0; index < settings.runs; index++) {
        const seed = (settings.seed + index) % 2 ** 31;
        const [conversation] = fc.sample(arbitrary, { numRuns: 1, seed });
        const baseline = await runBaseline(provider, conversation!);
        baselines.runs++;
        tally(baselines.violations, baseline.violations, seed);
        if (baseline.violations.length > 0) continue;
        for (const strategy of settings.strategies) {
          for (const integration of integrations) {
            for (const targetShare of shares) {
              const verdict = await checkAiSdkCase(provider, baseline, {
                strategy,
                integration,
                targetShare,
              });
              count(outcomeOf(strategy.name, target, integration, targetShare), verdict, seed);
            }
          }
        }
        settings.onConversation?.(target, index);
      }
    }
  } finally {
    await provider.close();
  }
  return report;
}

function emptyCounts() {
  return {
    runs: 0,
    compacted: 0,
    unreachable: 0,
    violations: new Map<string, RuleTally>(),
    unexplained: new Map<string, RuleTally>(),
    known: new Map<string, RuleTally>(),
  };
}

function count(outcome: AiSdkOutcome, verdict: AiSdkCaseVerdict, seed: number): void {
  outcome.runs++;
  if (verdict.compacted) outcome.compacted++;
  if (verdict.unreachable) outcome.unreachable++;
  const known = verdict.known.map(({ violation }) => violation);
  tally(outcome.violations, [...verdict.violations, ...known], seed);
  tally(outcome.unexplained, verdict.violations, seed);
  const byProblem = verdict.known.map(({ problem, violation }) => ({
    ...violation,
    rule: problem,
    message: `[${violation.rule}] ${violation.message}`,
  }));
  tally(outcome.known, byProblem, seed);
}

/** Counts violations by rule, once per rule and run, keeping the first examples. */
function tally(
  tallies: Map<string, RuleTally>,
  violations: readonly ContractViolation[],
  seed: number,
): void {
  const seen = new Set<string>();
  for (const violation of violations) {
    let entry = tallies.get(violation.rule);
    if (entry === undefined) {
      entry = { count: 0, examples: [] };
      tallies.set(violation.rule, entry);
    }
    if (seen.has(violation.rule)) continue;
    seen.add(violation.rule);
    entry.count++;
    if (entry.examples.length < examplesKept) entry.examples.push({ seed, violation });
  }
}

/** One line per outcome: runs, compactions, unreachable budgets, and runs breaking a rule by rule. */
export function describeAiSdkOutcome(outcome: AiSdkOutcome): string {
  const list = (tallies: Map<string, RuleTally>) =>
    [...tallies].map(([rule, entry]) => `${rule} ${entry.count}`).join(', ');
  const rules = list(outcome.unexplained);
  const known = list(outcome.known);
  return (
    `${outcome.strategy}: ${outcome.target} ${outcome.integration} at ${Math.round(outcome.targetShare * 100)}%: ` +
    `${outcome.runs} runs, ${outcome.compacted} compacted, ${outcome.unreachable} unreachable, ` +
    (rules === '' ? 'no unexplained violation' : `breaking a rule: ${rules}`) +
    (known === '' ? '' : `; known problems: ${known}`)
  );
}

/** Runs breaking a rule, summed over the outcomes: by rule (all or unexplained) or by known problem. */
export function totalsOf(
  report: AiSdkContractReport,
  field: 'violations' | 'unexplained' | 'known',
): Map<string, number> {
  const totals = new Map<string, number>();
  for (const outcome of report.outcomes) {
    for (const [rule, entry] of outcome[field]) totals.set(rule, (totals.get(rule) ?? 0) + entry.count);
  }
  return totals;
}
