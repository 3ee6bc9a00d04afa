import {
  type CompactionConfig,
  createCompactor,
  createStrategyRegistry,
  createTokenCounter,
  type Message,
  resolveCompactionConfig,
} from '@compaction/core';
import { fromAnthropicRequest, toAnthropicRequest } from '@compaction/provider-anthropic';
import {
  fromOpenAIChatMessages,
  fromOpenAIResponsesInput,
  toOpenAIChatMessages,
  toOpenAIResponsesInput,
} from '@compaction/provider-openai';
import pruning from '@compaction/strategy-pruning';
import slidingWindow from '@compaction/strategy-sliding-window';
import summarization from '@compaction/strategy-summarization';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { codingSession } from './coding-session.js';

/** What the runtime offers that the scenario depends on; reported beside the result, never compared. */
export interface ScenarioEnvironment {
  /** `isSecureContext` where the runtime defines it (browsers, workers), else `null`. */
  secureContext: boolean | null;
  /** Whether `crypto.randomUUID` exists: browsers define it only in secure contexts. */
  randomUUID: boolean;
}

/** One run of the scenario: the result, to compare byte for byte across runtimes, and the environment. */
export interface ScenarioReport {
  result: string;
  environment: ScenarioEnvironment;
}

/** The offline strategies, each picked by name from a config as an application would. */
const configs: Record<string, CompactionConfig> = {
  'tool-result-truncation': { strategy: 'tool-result-truncation' },
  pruning: { strategy: 'pruning' },
  'sliding-window': { strategy: 'sliding-window' },
  'summarization (artifact trail)': { strategy: { name: 'summarization', options: { maxOutputTokens: 0 } } },
  pipeline: { strategy: ['tool-result-truncation', 'sliding-window'] },
};

const version4UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Compacts one coding session, read from the Anthropic Messages format, with every offline strategy, and
 * writes each result back out in the Anthropic, Chat Completions and Responses formats. Everything that
 * depends on the clock or on chance (event ids, times) is left out of the result or reduced to its shape.
 */
export async function runScenario(): Promise<ScenarioReport> {
  const registry = createStrategyRegistry({
    definitions: [toolResultTruncation, pruning, slidingWindow, summarization],
  });
  const request = codingSession();
  const history = fromAnthropicRequest(request);
  const tokens = createTokenCounter().estimate(history);
  const runs: Record<string, unknown> = {};
  for (const [name, config] of Object.entries(configs)) {
    const compactor = createCompactor({
      ...(await resolveCompactionConfig(config, registry)),
      // A window the session overflows, so prepare() compacts (and records an event with a fresh id).
      budget: { contextWindow: Math.ceil(tokens * 0.8), reservedOutputTokens: 0, safetyMargin: 0 },
    });
    const prepared = await compactor.prepare(history);
    const event = prepared.event;
    runs[name] = {
      compacted: prepared.compacted,
      skipped: prepared.skipped ?? null,
      event: event && {
        idIsVersion4UUID: version4UUID.test(event.id),
        strategy: event.strategy,
        usedFallback: event.usedFallback,
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
        messagesBefore: event.messagesBefore,
        messagesAfter: event.messagesAfter,
        summary: event.summary ?? null,
        failures: event.failures,
      },
      ...converted(prepared.messages),
    };
  }
  const result = JSON.stringify({ tokens, conversions: roundTrips(history), runs });
  const runtime = globalThis as { isSecureContext?: boolean; crypto?: { randomUUID?: unknown } };
  return {
    result,
    environment: {
      secureContext: typeof runtime.isSecureContext === 'boolean' ? runtime.isSecureContext : null,
      randomUUID: typeof runtime.crypto?.randomUUID === 'function',
    },
  };
}

/** A history as each provider format writes it. */
function converted(messages: Message[]) {
  return {
    anthropic: toAnthropicRequest(messages),
    chat: toOpenAIChatMessages(messages),
    responses: toOpenAIResponsesInput(messages),
  };
}

/** Whether the history survives the trip through each OpenAI format and back, and how many messages each has. */
function roundTrips(history: Message[]) {
  const chat = toOpenAIChatMessages(history);
  const responses = toOpenAIResponsesInput(history);
  return {
    chatMessages: chat.length,
    responsesItems: typeof responses === 'string' ? 1 : responses.length,
    fromChat: toAnthropicRequest(fromOpenAIChatMessages(chat)),
    fromResponses: toAnthropicRequest(fromOpenAIResponsesInput(responses)),
  };
}
