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
  /** Runs whose compacted request, read back and compacted again, changed again. */
  compactedAgain: number;
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
 * - read back as the client sends it next and compacted again, it still has none, against itself compacted
 *   once and against the original (the notes of the first compaction are no user request), and holds no more
 *   summaries than it did (an earlier summary is merged, not left beside the new one);
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
    compactedAgain: 0,
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
      if (verdict.compactedAgain === true) outcome.compactedAgain++;
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
  /** Whether the compacted request, read back and compacted again, changed again. */
  compactedAgain?: boolean;
  /** What went wrong, when something did. */
  problem?: string;
}

/** One compaction of a request through the converters: what came out, or what went wrong. */
type RequestCompaction =
  | { problem: string }
  | { unreachable: true }
  | { compacted: boolean; atOrUnderTarget: boolean; written: unknown };

/**
 * Checks one request (valid for its provider) the way {@link checkProviderContracts} checks each generated
 * one: read, compacted down to `targetShare` of its tokens, written back, and checked against the contract.
 * A compacted request is then compacted again, read back as the client sends it next (the notes and
 * summaries of the first compaction now plain messages of the format, in Anthropic joined with the user
 * content beside them), and that request is checked against the contract, against the request compacted
 * once, and against the original: the newest user request and the opening come through every compaction.
 */
export async function checkProviderContractCase(
  settings: Omit<ProviderContractSettings, 'converters'>,
  converters: ProviderConverters,
  request: unknown,
  targetShare: number,
): Promise<ProviderContractCase> {
  const verdict: ProviderContractCase = { compacted: false, atOrUnderTarget: false, unreachable: false };
  const given = contracts[converters.format].violations(request);
  if (given.length > 0)
    return { ...verdict, problem: `the request is invalid to begin with: ${list(given)}` };
  const first = await compactRequest(settings, converters, request, targetShare, [request]);
  if ('problem' in first) return { ...verdict, problem: first.problem };
  if ('unreachable' in first) return { ...verdict, unreachable: true };
  const outcome = { ...verdict, compacted: first.compacted, atOrUnderTarget: first.atOrUnderTarget };
  if (!first.compacted) return outcome;
  const again = await compactRequest(settings, converters, first.written, targetShare, [
    first.written,
    request,
  ]);
  if ('problem' in again) return { ...outcome, problem: `compacted again: ${again.problem}` };
  if ('unreachable' in again) return outcome;
  const [once, twice] = [summaryCount(first.written), summaryCount(again.written)];
  if (twice > Math.max(1, once)) {
    const problem = `compacted again: ${twice} summaries, where the request compacted once held ${once}: an earlier summary was not merged`;
    return { ...outcome, problem };
  }
  return { ...outcome, compactedAgain: again.compacted };
}

/**
 * How many texts of a request open with a summary's first line: a summarization merges the summary an earlier
 * one left, so compacting again never adds one beside it.
 */
function summaryCount(request: unknown): number {
  return (
    JSON.stringify(request).match(/":"\[Summary of \d+ earlier messages?, compaction round \d+/g)?.length ?? 0
  );
}

/**
 * Reads `request`, compacts it down to `targetShare` of its tokens and writes it back. Unchanged, it must be
 * the input byte for byte; compacted, it must keep its provider's contract, and every rule between it and each
 * of `originals`.
 */
async function compactRequest(
  settings: Omit<ProviderContractSettings, 'converters'>,
  converters: ProviderConverters,
  request: unknown,
  targetShare: number,
  originals: readonly unknown[],
): Promise<RequestCompaction> {
  let messages: Message[];
  try {
    messages = converters.read(request);
  } catch (error) {
    return { problem: `the converter refused a valid request: ${(error as Error).message}` };
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
    if (BudgetUnreachableError.isInstance(error)) return { unreachable: true };
    return { problem: `compaction threw: ${(error as Error).stack ?? String(error)}` };
  }
  let written: unknown;
  try {
    written = converters.write(result.messages, request);
  } catch (error) {
    return { problem: `the converter could not write the result: ${(error as Error).message}` };
  }
  const atOrUnderTarget = counter.count(result.messages) <= target;
  if (!result.compacted) {
    const same = JSON.stringify(written) === JSON.stringify(request);
    if (same) return { compacted: false, atOrUnderTarget, written };
    return { problem: 'nothing was compacted, yet the request written back differs from the input' };
  }
  // Each comparison checks the compacted request's own format too: that is reported once.
  const violations = [
    ...new Map(
      originals
        .flatMap((original) => compactedRequestViolations(converters.format, original, written))
        .map((violation) => [JSON.stringify(violation), violation]),
    ).values(),
  ];
  if (violations.length > 0)
    return { problem: `the compacted request breaks the contract: ${list(violations)}` };
  return { compacted: true, atOrUnderTarget, written };
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
    `(${outcome.atOrUnderTarget} at or under the target, ${outcome.compactedAgain} compacted again once ` +
    `read back), ${outcome.unreachable} unreachable, ` +
    `${outcome.failure === undefined ? 'no' : 'a'} contract failure`
  );
}
