import { fromAiSdk } from '@compaction/ai-sdk';
import { BudgetUnreachableError, createTokenCounter } from '@compaction/core';
import {
  anthropicMessagesViolations,
  type ContractViolation,
  compactedRequestViolations,
  openAIChatViolations,
  openAIResponsesViolations,
  type ProviderRequestFormat,
} from '@compaction/testing';
import type { StrategyUnderTest } from '../strategies-under-test.js';
import type { AiSdkConversation } from './ai-sdk-conversation.js';
import { type AiSdkIntegration, type GenerateTextCall, generateTextCall } from './generate-text-call.js';
import { knownProblemOf } from './known-problems.js';
import type { LoopbackProvider } from './loopback-provider.js';

/**
 * Rules of the AI SDK path itself, reported next to the providers' rules: what must hold besides each
 * request being one the API accepts.
 */
export const aiSdkRules = {
  /** The call without compaction failed: the generated conversation or the SDK is at fault, not compaction. */
  baselineFailed: 'ai-sdk.baseline-failed',
  /** A request the SDK sends for the uncompacted conversation breaks a provider rule (same). */
  baselineInvalid: 'ai-sdk.baseline-invalid',
  /** The call with compaction threw something other than `BudgetUnreachableError`. */
  callFailed: 'ai-sdk.call-failed',
  /** The compactor caught a failure other than an unreachable budget (a strategy threw or broke a rule). */
  compactionFailed: 'ai-sdk.compaction-failed',
  /** Nothing was compacted, yet a request differs from the uncompacted one: a no-op must send the same bytes. */
  unchangedRequestDiffers: 'ai-sdk.unchanged-request-differs',
  /** The call with compaction made a different number of requests than the one without. */
  stepCount: 'ai-sdk.step-count',
} as const;

const validators: Record<ProviderRequestFormat, (request: unknown) => ContractViolation[]> = {
  anthropic: anthropicMessagesViolations,
  'openai-chat': openAIChatViolations,
  'openai-responses': openAIResponsesViolations,
};

/** The uncompacted call of a conversation: what every compacted call is compared with. */
export interface Baseline {
  conversation: AiSdkConversation;
  call: GenerateTextCall;
  /** The conversation's tokens, as the integrations count them. */
  tokens: number;
  /** Why the conversation cannot serve as a baseline, when it cannot. */
  violations: ContractViolation[];
}

/** Runs the conversation without compaction and checks every request against its provider's rules. */
export async function runBaseline(
  provider: LoopbackProvider,
  conversation: AiSdkConversation,
): Promise<Baseline> {
  const call = await generateTextCall(provider, conversation);
  const tokens = createTokenCounter().count(fromAiSdk(conversation.messages));
  if (call.failed) {
    return { conversation, call, tokens, violations: [violation(aiSdkRules.baselineFailed, '', call.error)] };
  }
  const validate = validators[conversation.target];
  const violations = call.bodies.flatMap((body, step) =>
    validate(body).map((found) => ({
      rule: aiSdkRules.baselineInvalid,
      path: `step ${step}: ${found.path}`,
      message: `[${found.rule}] ${found.message}`,
    })),
  );
  return { conversation, call, tokens, violations };
}

/** One compacted call: a strategy, an integration, and how far the budget forces it. */
export interface AiSdkCase {
  strategy: StrategyUnderTest;
  integration: AiSdkIntegration;
  /** The share of the conversation's tokens to compact down to. */
  targetShare: number;
}

/** What one compacted call came to. */
export interface AiSdkCaseVerdict {
  compacted: boolean;
  /** The budget could not be reached (`BudgetUnreachableError`, thrown or caught by the compactor). */
  unreachable: boolean;
  /** Violations of no known cause: failures. */
  violations: ContractViolation[];
  /** Violations of a known cause ({@link knownProblems}), by problem id. */
  known: Array<{ problem: string; violation: ContractViolation }>;
}

/**
 * Runs the baseline's conversation again with compaction and a budget that forces it (target at
 * `targetShare` of the conversation, trigger halfway between target and the whole), and checks every request
 * the SDK sent: against its provider's rules, and against the request sent at the same step without
 * compaction (system prompt, settings and newest user request kept, nothing invented, reasoning unmodified).
 */
export async function checkAiSdkCase(
  provider: LoopbackProvider,
  baseline: Baseline,
  testCase: AiSdkCase,
): Promise<AiSdkCaseVerdict> {
  const { tokens, conversation } = baseline;
  const target = Math.max(2, Math.floor(tokens * testCase.targetShare));
  const trigger = Math.max(target + 1, Math.floor((tokens + target) / 2));
  const strategy = await testCase.strategy.strategy();
  const fallback = await testCase.strategy.fallback?.();
  const call = await generateTextCall(provider, conversation, {
    integration: testCase.integration,
    settings: {
      strategy,
      ...(fallback === undefined ? {} : { fallback }),
      budget: {
        contextWindow: Math.max(200_000, tokens * 4),
        reservedOutputTokens: 0,
        safetyMargin: 0,
        trigger,
        target,
      },
    },
  });

  const violations: ContractViolation[] = [];
  const known: AiSdkCaseVerdict['known'] = [];
  let unreachable = call.failed && BudgetUnreachableError.isInstance(call.error);
  if (call.failed && !unreachable) violations.push(violation(aiSdkRules.callFailed, '', call.error));
  for (const error of call.compactionErrors) {
    if (BudgetUnreachableError.isInstance(error)) unreachable = true;
    else violations.push(violation(aiSdkRules.compactionFailed, '', error));
  }
  if (!call.failed && call.bodies.length !== baseline.call.bodies.length) {
    violations.push({
      rule: aiSdkRules.stepCount,
      path: '',
      message: `${call.bodies.length} requests with compaction, ${baseline.call.bodies.length} without`,
    });
  }
  call.bodies.forEach((body, step) => {
    const original = baseline.call.bodies[step];
    if (original === undefined || JSON.stringify(body) === JSON.stringify(original)) return;
    if (call.compactions === 0) {
      violations.push({
        rule: aiSdkRules.unchangedRequestDiffers,
        path: `step ${step}`,
        message: 'nothing was compacted, yet the request differs from the one sent without compaction',
      });
      return;
    }
    for (const found of compactedRequestViolations(conversation.target, original, body)) {
      const located = { ...found, path: `step ${step}: ${found.path}` };
      const problem = knownProblemOf(found, { target: conversation.target, original, compacted: body });
      if (problem === undefined) violations.push(located);
      else known.push({ problem: problem.id, violation: located });
    }
  });
  return { compacted: call.compactions > 0, unreachable, violations, known };
}

function violation(rule: string, path: string, error: unknown): ContractViolation {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { rule, path, message: message.length > 600 ? `${message.slice(0, 600)}...` : message };
}
