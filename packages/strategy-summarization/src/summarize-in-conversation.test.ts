import {
  type CompactionInput,
  createTokenCounter,
  type Message,
  textOf,
  verifyCompaction,
} from '@compaction/core';
import { toAnthropicRequest } from '@compaction/provider-anthropic';
import { toOpenAIChatMessages } from '@compaction/provider-openai';
import { isSummary } from '@compaction/strategy-kit';
import {
  anthropicMessagesViolations,
  createMockProvider,
  deepFreeze,
  openAIChatViolations,
} from '@compaction/testing';
import { describe, expect, it } from 'vitest';
import { agentSession, agentSteps, sessionHead, userMessage } from './__fixtures__/agent-session.js';
import { promptOf, summarizingProvider, wellFormedSummary } from './__fixtures__/summaries.js';
import { createSummarization, type SummarizationSettings } from './create-summarization.js';
import { excerptOf } from './span-pointer.js';
import { continuationLead, trailPointer } from './summarize-in-conversation.js';
import { summarizerSystemPrompt } from './summarize-span.js';
import { defaultSummarySections } from './summary-template.js';

const counter = createTokenCounter();

function inputFor(messages: readonly Message[], target: number, round = 1): CompactionInput {
  return { messages, counter, budget: { limit: target, target }, trigger: 'auto', round };
}

async function compact(messages: readonly Message[], settings: SummarizationSettings, target = 1500) {
  const input = inputFor(messages, target);
  const output = await createSummarization(settings).compact(input);
  expect(verifyCompaction({ before: messages, after: output.messages, counter, limit: target })).toEqual([]);
  return output;
}

/** The tools an agent defines for the calls in the fixtures: an Anthropic request with tool blocks needs them. */
const agentTools = ['read_file', 'bash', 'edit_file'].map((name) => ({
  name,
  description: `The ${name} tool.`,
  input_schema: { type: 'object' },
}));

/** What the Anthropic and OpenAI Chat contract checks find in a request built from these messages. */
function providerViolations(messages: Message[]): string[] {
  const anthropic = anthropicMessagesViolations({
    model: 'claude-sonnet-5-5',
    max_tokens: 1000,
    tools: agentTools,
    ...toAnthropicRequest(messages),
  });
  const openai = openAIChatViolations({ model: 'gpt-5', messages: toOpenAIChatMessages(messages) });
  return [...anthropic, ...openai].map((violation) => `${violation.rule}: ${violation.message}`);
}

/** The request opens with these very messages (the same objects, in order): the cache prefix matches them. */
function expectSameMessages(sent: readonly Message[], messages: readonly Message[]) {
  for (const [index, message] of messages.entries()) expect(sent[index]).toBe(message);
}

describe("summarizerRequest: 'continuation'", () => {
  it('sends the conversation unchanged, then one user message asking for the summary of the evicted span', async () => {
    const history = deepFreeze(agentSession(12, 'Now add a test for negative totals.'));
    const provider = summarizingProvider();
    const output = await compact(history, { provider, summarizerRequest: 'continuation' });

    expect(output.details).toMatchObject({
      summarized: true,
      summarizerCalls: 1,
      chunks: 1,
      summarizerRequest: 'continuation',
    });
    expect(output.details).not.toHaveProperty('fallback');
    expect(provider.requests).toHaveLength(1);
    const sent = provider.requests[0]!.messages;
    // The very messages the agent sends, in order: the provider's cache prefix matches them.
    expect(sent).toHaveLength(history.length + 1);
    expectSameMessages(sent, history);
    const request = sent.at(-1)!;
    expect(request.role).toBe('user');
    const prompt = textOf(request);
    expect(prompt.startsWith(continuationLead)).toBe(true);
    expect(prompt).not.toContain(summarizerSystemPrompt);
    for (const section of defaultSummarySections) expect(prompt).toContain(`## ${section}`);
    // It names the span (how many, where it begins and ends) instead of repeating it.
    const summarized = output.details?.summarizedMessages as number;
    const evicted = history.slice(sessionHead.length, sessionHead.length + summarized);
    expect(prompt).toContain(`the ${summarized} messages of this conversation above`);
    expect(prompt).toContain(excerptOf(evicted[0]!));
    expect(prompt).toContain(excerptOf(evicted.at(-1)!));
    expect(prompt).not.toContain(textOf(history.at(-1)!));
    // Nor the artifact trail, which the calls above show: what the conversation holds is read from the cache.
    expect(prompt).toContain(trailPointer);
    expect(prompt).not.toContain('npm test -- --filter invoice_1');
    // The summary it answered is the one used.
    const summary = output.messages.find(isSummary)!;
    expect(textOf(summary)).toContain(wellFormedSummary());
    expect(providerViolations(sent)).toEqual([]);
  });

  it('ends before a last assistant message whose tool calls still wait for results, so the request stays valid', async () => {
    const steps = agentSteps(0, 13);
    // The newest step's call has no result yet: the agent is compacting before it runs the tool.
    const waiting = steps.slice(0, -1);
    const history = deepFreeze([...sessionHead, ...waiting]);
    const provider = summarizingProvider();
    const output = await compact(history, { provider, summarizerRequest: 'continuation' });

    expect(output.details).toMatchObject({ summarizerRequest: 'continuation' });
    const sent = provider.requests[0]!.messages;
    expect(sent).toHaveLength(history.length);
    expectSameMessages(sent, history.slice(0, -1));
    expect(sent.at(-1)!.role).toBe('user');
    expect(sent.at(-2)!.role).toBe('tool');
    // The unanswered call is not sent, and both APIs accept what is.
    expect(providerViolations(sent)).toEqual([]);
    // Sent whole, the request would break the pairing rule (the OpenAI converter refuses it outright).
    const unanswered = anthropicMessagesViolations({
      tools: agentTools,
      ...toAnthropicRequest([...history, userMessage('Summarize.')]),
    });
    expect(unanswered.map((violation) => violation.rule)).toContain('anthropic.tool-use-answered');
  });

  it("points at the previous round's summary in the conversation instead of repeating it", async () => {
    const first = await compact(agentSession(12, 'Now add a test for negative totals.'), {
      provider: createMockProvider({ responses: [wellFormedSummary('round one')] }),
    });
    const history = deepFreeze([...first.messages, ...agentSteps(100, 10), userMessage('Ship it.')]);
    const provider = summarizingProvider();
    const input = inputFor(history, 1500, 2);
    const second = await createSummarization({ provider, summarizerRequest: 'continuation' }).compact(input);

    expect(second.details).toMatchObject({ round: 2, mergedSummaries: 1, summarizerRequest: 'continuation' });
    const sent = provider.requests[0]!.messages;
    expectSameMessages(sent, history);
    const prompt = textOf(sent.at(-1)!);
    const earlier = history.find(isSummary)!;
    expect(prompt).not.toContain(wellFormedSummary('round one'));
    expect(prompt).toContain(`in the ${earlier.role} message that begins “${excerptOf(earlier)}”`);
    expect(providerViolations(sent)).toEqual([]);
  });

  it("sends the span as a transcript when the conversation does not fit the summarizer's window", async () => {
    const history = deepFreeze(agentSession(40, 'Now add a test for negative totals.'));
    const window = Math.floor(counter.estimate(history) * 0.7);
    const provider = summarizingProvider({ limits: { contextWindow: window, maxOutputTokens: 1000 } });
    const output = await compact(history, { provider, summarizerRequest: 'continuation' }, 3000);

    expect(output.details).toMatchObject({ summarized: true, summarizerRequest: 'transcript' });
    expect(output.details).not.toHaveProperty('fallback');
    expect(provider.requests.length).toBeGreaterThan(0);
    for (const request of provider.requests) {
      expect(request.messages[0]).toMatchObject({ content: [{ text: summarizerSystemPrompt }] });
      expect(counter.estimate(request.messages)).toBeLessThanOrEqual(window);
    }
  });

  it('falls back to the extractive digest when the summarizer fails, as with a transcript', async () => {
    const history = deepFreeze(agentSession(12, 'Now add a test for negative totals.'));
    const provider = createMockProvider({ responses: [new Error('503 overloaded')] });
    const output = await compact(history, { provider, summarizerRequest: 'continuation' });

    expect(output.details).toMatchObject({
      summarizerRequest: 'continuation',
      fallback: 'extractive',
      reason: 'provider-error',
    });
    expect(output.messages.filter(isSummary)).toHaveLength(1);
  });

  it('is not the default: without the option the summarizer gets a transcript and details stay as they were', async () => {
    const history = deepFreeze(agentSession(12, 'Now add a test for negative totals.'));
    const provider = summarizingProvider();
    const output = await compact(history, { provider });

    expect(output.details).not.toHaveProperty('summarizerRequest');
    const sent = provider.requests[0]!.messages;
    expect(sent.map((message) => message.role)).toEqual(['system', 'user']);
    expect(promptOf(provider.requests[0]!)).toContain('src/billing/invoice_0.ts');
  });
});
