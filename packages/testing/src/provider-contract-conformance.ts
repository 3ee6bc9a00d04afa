import {
  BudgetUnreachableError,
  type CompactionStrategy,
  createCompactor,
  createTokenCounter,
  type Message,
  type TokenEstimator,
} from '@compaction/core';
import fc from 'fast-check';
import { anthropicMessagesRequestArbitrary } from './provider-contracts/anthropic-messages-request-arbitrary.js';
import { anthropicMessagesViolations } from './provider-contracts/anthropic-messages-violations.js';
import {
  compactedRequestViolations,
  type ProviderRequestFormat,
} from './provider-contracts/compacted-request-violations.js';
import type { ContractViolation } from './provider-contracts/contract-violation.js';
import { openAIChatRequestArbitrary } from './provider-contracts/openai-chat-request-arbitrary.js';
import { openAIChatViolations } from './provider-contracts/openai-chat-violations.js';
import { openAIResponsesRequestArbitrary } from './provider-contracts/openai-responses-request-arbitrary.js';
import { openAIResponsesViolations } from './provider-contracts/openai-responses-violations.js';

/** Reads and writes the conversation of one provider's requests: the converters under test. */
export interface ProviderConverters {
  format: ProviderRequestFormat;
  /** The conversation of a request, as core messages. */
  read(request: unknown): Message[];
  /** `original` with its conversation replaced by `messages`, every other field and key order kept. */
  write(messages: Message[], original: unknown): unknown;
}

/** Settings of {@link checkProviderContracts}. */
export interface ProviderContractSettings {
  /** The strategy under test, or a function that makes a fresh one for each case. */
  strategy: CompactionStrategy | (() => CompactionStrategy | Promise<CompactionStrategy>);
  /** Run when the strategy fails, as the Compactor's fallback. */
  fallback?: () => CompactionStrategy | Promise<CompactionStrategy>;
  converters: readonly ProviderConverters[];
  /** Shares of each conversation's tokens to compact down to. Default 50%, 25% and 10%. */
  targetShares?: readonly number[];
  /** Generated requests per format and target. Default 100. */
  numRuns?: number;
  seed?: number;
  estimator?: TokenEstimator;
}

/** What one format at one target share came to. */
export interface ProviderContractOutcome {
  format: ProviderRequestFormat;
  targetShare: number;
  runs: number;
  /** Runs in which the strategy changed the history. */
  compacted: number;
  /** Runs whose compacted request was at or under the target. */
  atOrUnderTarget: number;
  /** Runs that ended in a `BudgetUnreachableError` (the protected messages alone are over the target). */
  unreachable: number;
  /** fast-check's report of the smallest failing request, when one failed. */
  failure?: string;
}

/** The default target shares: half, a quarter and a tenth of each conversation. */
export const defaultTargetShares: readonly number[] = [0.5, 0.25, 0.1];

interface FormatContract {
  arbitrary: () => fc.Arbitrary<unknown>;
  violations: (request: unknown) => ContractViolation[];
}

const contracts: Record<ProviderRequestFormat, FormatContract> = {
  anthropic: {
    arbitrary: () => anthropicMessagesRequestArbitrary(),
    violations: anthropicMessagesViolations,
  },
  'openai-chat': { arbitrary: () => openAIChatRequestArbitrary(), violations: openAIChatViolations },
  'openai-responses': {
    arbitrary: () => openAIResponsesRequestArbitrary(),
    violations: openAIResponsesViolations,
  },
};

/**
 * Runs a strategy, through a Compactor, on generated requests of each provider format (with every block and
 * item type the SDKs define), converted by the converters under test, and checks every request that comes
 * out against the provider's documented contract:
 *
 * - the converters read every generated request (it is valid, so refusing it is a bug);
 * - when nothing was compacted, writing the history back gives the request byte for byte (providers cache
 *   on the exact prefix);
 * - a compacted request has no contract violation, alone or against the original (newest user request,
 *   system prompt, no invented calls);
 * - the only error allowed is `BudgetUnreachableError`, counted apart.
 *
 * Returns one outcome per format and target share, with how many runs actually compacted.
 */
export async function checkProviderContracts(
  settings: ProviderContractSettings,
): Promise<ProviderContractOutcome[]> {
  const outcomes: ProviderContractOutcome[] = [];
  for (const converters of settings.converters) {
    for (const targetShare of settings.targetShares ?? defaultTargetShares) {
      outcomes.push(await checkFormatAtShare(settings, converters, targetShare));
    }
  }
  return outcomes;
}

async function checkFormatAtShare(
  settings: ProviderContractSettings,
  converters: ProviderConverters,
  targetShare: number,
): Promise<ProviderContractOutcome> {
  const contract = contracts[converters.format];
  const outcome: ProviderContractOutcome = {
    format: converters.format,
    targetShare,
    runs: 0,
    compacted: 0,
    atOrUnderTarget: 0,
    unreachable: 0,
  };
  // After the first failure fast-check only shrinks it: the runs after that are not counted.
  let shrinking = false;
  const property = fc.asyncProperty(contract.arbitrary(), async (request) => {
    const verdict = await checkProviderContractCase(settings, converters, request, targetShare);
    if (!shrinking) {
      outcome.runs++;
      if (verdict.compacted) outcome.compacted++;
      if (verdict.atOrUnderTarget) outcome.atOrUnderTarget++;
      if (verdict.unreachable) outcome.unreachable++;
    }
    if (verdict.problem !== undefined) {
      shrinking = true;
      throw new Error(verdict.problem);
    }
  });
  const details = await fc.check(property, {
    numRuns: settings.numRuns ?? 100,
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
  });
  if (details.failed) {
    const reason = details.errorInstance instanceof Error ? details.errorInstance.message : 'failed';
    const example = JSON.stringify(details.counterexample?.[0]) ?? '';
    outcome.failure =
      `${reason}\nseed ${details.seed}, path "${details.counterexamplePath}"\n` +
      `request: ${example.length > 4000 ? `${example.slice(0, 4000)}... (${example.length} characters)` : example}`;
  }
  return outcome;
}

/** What one request came to. */
export interface ProviderContractCase {
  compacted: boolean;
  atOrUnderTarget: boolean;
  unreachable: boolean;
  /** What went wrong, when something did. */
  problem?: string;
}

/**
 * Checks one request (valid for its provider) the way {@link checkProviderContracts} checks each generated
 * one: read, compacted down to `targetShare` of its tokens, written back, and checked against the contract.
 */
export async function checkProviderContractCase(
  settings: Omit<ProviderContractSettings, 'converters'>,
  converters: ProviderConverters,
  request: unknown,
  targetShare: number,
): Promise<ProviderContractCase> {
  const contract = contracts[converters.format];
  const verdict: ProviderContractCase = { compacted: false, atOrUnderTarget: false, unreachable: false };
  const given = contract.violations(request);
  if (given.length > 0)
    return { ...verdict, problem: `the request is invalid to begin with: ${list(given)}` };
  let messages: Message[];
  try {
    messages = converters.read(request);
  } catch (error) {
    return { ...verdict, problem: `the converter refused a valid request: ${(error as Error).message}` };
  }
  const counter = createTokenCounter(settings.estimator);
  const tokens = counter.count(messages);
  const target = Math.max(2, Math.floor(tokens * targetShare));
  const strategy = typeof settings.strategy === 'function' ? await settings.strategy() : settings.strategy;
  const fallback = settings.fallback === undefined ? undefined : await settings.fallback();
  const compactor = createCompactor({
    strategy,
    ...(fallback === undefined ? {} : { fallback }),
    // The CLI's `compact --target` budget: a large window, so the target alone decides how far to go.
    budget: { contextWindow: Math.max(200_000, tokens * 2), trigger: false, target },
    counter,
  });
  let result: Awaited<ReturnType<typeof compactor.compact>>;
  try {
    result = await compactor.compact(messages, { trigger: 'manual' });
  } catch (error) {
    if (BudgetUnreachableError.isInstance(error)) return { ...verdict, unreachable: true };
    return { ...verdict, problem: `compaction threw: ${(error as Error).stack ?? String(error)}` };
  }
  let written: unknown;
  try {
    written = converters.write(result.messages, request);
  } catch (error) {
    return { ...verdict, problem: `the converter could not write the result: ${(error as Error).message}` };
  }
  const atOrUnderTarget = counter.count(result.messages) <= target;
  if (!result.compacted) {
    const same = JSON.stringify(written) === JSON.stringify(request);
    return {
      ...verdict,
      atOrUnderTarget,
      ...(same
        ? {}
        : { problem: 'nothing was compacted, yet the request written back differs from the input' }),
    };
  }
  const violations = [
    ...contract.violations(written),
    ...compactedRequestViolations(converters.format, request, written),
  ];
  return {
    compacted: true,
    atOrUnderTarget,
    unreachable: false,
    ...(violations.length === 0
      ? {}
      : { problem: `the compacted request breaks the contract: ${list(violations)}` }),
  };
}

function list(violations: readonly ContractViolation[]): string {
  return violations
    .slice(0, 5)
    .map((violation) => `[${violation.rule}] ${violation.path}: ${violation.message}`)
    .join('; ');
}

/** One line per outcome, for test output and reports. */
export function describeProviderContractOutcome(outcome: ProviderContractOutcome): string {
  const share = `${Math.round(outcome.targetShare * 100)}%`;
  return (
    `${outcome.format} at ${share}: ${outcome.runs} requests, ${outcome.compacted} compacted ` +
    `(${outcome.atOrUnderTarget} at or under the target), ${outcome.unreachable} unreachable, ` +
    `${outcome.failure === undefined ? 'no' : 'a'} contract failure`
  );
}
