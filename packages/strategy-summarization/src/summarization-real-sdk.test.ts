import {
  type CompactionOutput,
  compactionMetadataOf,
  createCompactor,
  createTokenCounter,
  type Message,
  textOf,
  verifyCompaction,
} from '@compaction/core';
import { isSummary } from '@compaction/strategy-kit';
import { deepFreeze } from '@compaction/testing';
import { type Reply, startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentSession, agentSteps, userMessage } from './__fixtures__/agent-session.js';
import { artifactsOfSpan, visibleText } from './__fixtures__/artifacts-of-span.js';
import { type HarnessProviderSettings, type SdkHarness, sdkHarnesses } from './__fixtures__/sdk-harnesses.js';
import { wellFormedSummary } from './__fixtures__/summaries.js';
import { createSummarization, type SummarizationSettings } from './create-summarization.js';
import { summarizerSystemPrompt } from './summarize-span.js';
import { defaultSummarySections } from './summary-template.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** Retries and timeouts small enough for a fast suite, large enough that a healthy local call never trips them. */
const quick: HarnessProviderSettings = { maxRetries: 2, timeout: 2000 };
const counter = createTokenCounter();
/** The target the histories below are compacted to: room for several recent turns, a summary and the trail. */
const target = 3200;

function compact(
  messages: Message[],
  settings: SummarizationSettings,
  { round = 1, tokens = target }: { round?: number; tokens?: number } = {},
): Promise<CompactionOutput> {
  return createSummarization(settings).compact({
    messages,
    counter,
    budget: { limit: tokens, target: tokens },
    trigger: 'manual',
    round,
  });
}

const summaryOf = (messages: readonly Message[]): Message => {
  const summaries = messages.filter(isSummary);
  expect(summaries).toHaveLength(1);
  return summaries[0]!;
};

describe.each(sdkHarnesses)('summarization through the real $name SDK and a loopback server', (harness) => {
  const provider = (settings: Partial<HarnessProviderSettings> = {}) =>
    harness.createProvider(server, { ...quick, ...settings });
  const answerWith = (text: string) => server.handle(harness.path, () => harness.success(text));

  describe('the summarizer request', () => {
    it('is valid: system prompt in its field, one user turn, max tokens from the option, no temperature', async () => {
      answerWith(wellFormedSummary());
      // Small, so the snapshot stays readable: four steps are summarized, two stay verbatim.
      const history = deepFreeze(agentSession(6, 'Now add a test for negative totals.'));
      const output = await compact(history, { provider: provider(), maxOutputTokens: 250 }, { tokens: 1200 });

      expect(output.details).toMatchObject({ summarized: true, summarizerCalls: 1 });
      expect(output.details).not.toHaveProperty('fallback');
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request!.method).toBe('POST');
      expect(request!.path).toBe(harness.path);
      expect(harness.requestIssues(request!.body)).toEqual([]);
      const view = harness.view(request!.body);
      expect(view.model).toBe(harness.model);
      expect(view.system).toBe(summarizerSystemPrompt);
      expect(view.turns.map((turn) => turn.role)).toEqual(['user']);
      expect(view.maxTokens).toBe(250);
      expect(view.temperature).toBeUndefined();
      // The prompt carries the evicted span and asks for every section; the kept messages are not in it.
      const prompt = view.turns[0]!.text;
      for (const section of defaultSummarySections) expect(prompt).toContain(`## ${section}`);
      expect(prompt).toContain('src/billing/invoice_0.ts');
      expect(prompt).not.toContain(textOf(history.at(-1)!));
      expect(request!.body).toMatchSnapshot();
    });

    it("sends a configured temperature and caps max tokens at the model's output limit", async () => {
      answerWith(wellFormedSummary());
      const history = deepFreeze(agentSession(16, 'Now add a test for negative totals.'));
      const output = await compact(history, {
        provider: provider({ limits: { contextWindow: 200_000, maxOutputTokens: 300 } }),
        maxOutputTokens: 700,
        temperature: 0.2,
      });
      expect(output.details).not.toHaveProperty('fallback');
      const view = harness.view(server.requests[0]!.body);
      expect(harness.requestIssues(server.requests[0]!.body)).toEqual([]);
      expect(view.temperature).toBe(0.2);
      expect(view.maxTokens).toBe(300);
    });

    it("merges the previous round's summary within one valid user turn", async () => {
      answerWith(wellFormedSummary('round one'));
      const first = await compact(agentSession(16, 'Now add a test for negative totals.'), {
        provider: provider(),
      });
      answerWith(wellFormedSummary('round two'));
      server.requests.length = 0;
      const history = deepFreeze([...first.messages, ...agentSteps(100, 10), userMessage('Ship it.')]);
      const second = await compact(history, { provider: provider() }, { round: 2 });

      expect(second.details).toMatchObject({ summarized: true, round: 2, mergedSummaries: 1 });
      expect(server.requests).toHaveLength(1);
      expect(harness.requestIssues(server.requests[0]!.body)).toEqual([]);
      const view = harness.view(server.requests[0]!.body);
      expect(view.turns).toHaveLength(1);
      expect(view.turns[0]!.text).toContain(wellFormedSummary('round one'));
      expect(textOf(summaryOf(second.messages))).toContain(wellFormedSummary('round two'));
    });

    it('is retried by the SDK after a 429 once retry-after has passed, and the summary is used', async () => {
      server.enqueue(harness.path, harness.rateLimited(60));
      answerWith(wellFormedSummary());
      const output = await compact(agentSession(16, 'Now add a test for negative totals.'), {
        provider: provider(),
      });
      expect(output.details).not.toHaveProperty('fallback');
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
      expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(50);
    });
  });

  describe('faults end in the extractive fallback with nothing lost', () => {
    /** Everything the session ever did: round one's input and the steps added since. */
    let everything: Message[];
    /** The round-two history: the system prompt, round one's summary, the task, recent turns, new work. */
    let history: Message[];
    const earlierSummary = wellFormedSummary('round one');

    beforeAll(async () => {
      server.reset();
      answerWith(earlierSummary);
      const roundOne = agentSession(16, 'Now add a test for negative totals.');
      const first = await compact(roundOne, { provider: provider() });
      expect(first.details).not.toHaveProperty('fallback');
      const later = [...agentSteps(100, 12), userMessage('Also round the tax lines half up.')];
      everything = [...roundOne, ...later];
      history = deepFreeze([...first.messages, ...later]);
    });

    /** The checks every fault must pass: the fallback was used, and nothing that matters is gone. */
    function expectNothingLost(output: CompactionOutput, reason: string): void {
      expect(output.details).toMatchObject({ summarized: true, round: 2, fallback: 'extractive', reason });
      const summary = summaryOf(output.messages);
      expect(compactionMetadataOf(summary)).toMatchObject({
        kind: 'summary',
        round: 2,
        fallback: 'extractive',
      });
      expect(verifyCompaction({ before: history, after: output.messages, counter, limit: target })).toEqual(
        [],
      );
      expect(counter.estimate(output.messages)).toBeLessThanOrEqual(target);

      // The verbatim parts are the input's own objects, in order: the system prompt, the task, then an
      // unbroken run of the newest messages up to the newest request, whose oldest turn may have had its
      // results shortened to fill the recent turns' room (then it stands where its original stood).
      const kept = output.messages.filter((message) => message !== summary);
      const shortened = kept.filter((message) => !history.includes(message));
      expect(shortened.length).toBeLessThanOrEqual(1);
      for (const message of shortened) {
        expect(message.role).toBe('tool');
        expect(compactionMetadataOf(message)).toMatchObject({ kind: 'modified', strategy: 'summarization' });
      }
      const positions = kept.map((message) => {
        if (history.includes(message)) return history.indexOf(message);
        const id = message.role === 'tool' ? message.content[0]?.toolCallId : undefined;
        return history.findIndex(
          (original) => original.role === 'tool' && original.content[0]?.toolCallId === id,
        );
      });
      expect(positions).not.toContain(-1);
      const task = history.findIndex((message) => message.role === 'user' && !isSummary(message));
      expect(positions.slice(0, 2)).toEqual([0, task]);
      const recent = positions.slice(2);
      expect(recent.length).toBeGreaterThan(1);
      expect(recent).toEqual(recent.map((_, index) => history.length - recent.length + index));

      // The earlier summary is carried in full, and so is every file and command of the whole session.
      const summaryText = textOf(summary);
      expect(summaryText).toContain(earlierSummary);
      const text = visibleText(output.messages);
      const { paths, commands } = artifactsOfSpan(everything);
      expect(paths.size).toBeGreaterThan(15);
      expect(commands.size).toBeGreaterThan(8);
      for (const path of paths) expect(text).toContain(path);
      for (const command of commands) expect(text).toContain(command);
    }

    const faults: Array<{
      name: string;
      replies: (harness: SdkHarness) => Reply[];
      settings: Partial<HarnessProviderSettings>;
      attempts: number;
      reason: string;
      /** What the recorded failure says. */
      failure: RegExp;
    }> = [
      {
        name: '429 with retry-after, retried until the retries are spent',
        replies: (sdk) => [sdk.rateLimited(20), sdk.rateLimited(20), sdk.rateLimited(20)],
        settings: { maxRetries: 2 },
        attempts: 3,
        reason: 'provider-error',
        failure: /\b429\b/,
      },
      {
        name: '500, retried once',
        replies: (sdk) => [sdk.serverError(10), sdk.serverError(10)],
        settings: { maxRetries: 1 },
        attempts: 2,
        reason: 'provider-error',
        failure: /\b500\b/,
      },
      {
        name: 'a timeout, retried once',
        replies: (sdk) => [
          { ...sdk.success(wellFormedSummary()), delayMs: 3000 },
          { ...sdk.success(wellFormedSummary()), delayMs: 3000 },
        ],
        settings: { maxRetries: 1, timeout: 100 },
        attempts: 2,
        reason: 'provider-error',
        failure: /timed out/i,
      },
      {
        name: 'a malformed JSON body',
        replies: (sdk) => [sdk.malformed()],
        settings: {},
        attempts: 1,
        reason: 'provider-error',
        failure: /JSON/,
      },
      {
        name: 'an empty text',
        replies: (sdk) => [sdk.empty()],
        settings: {},
        attempts: 1,
        reason: 'empty',
        failure: /no text/,
      },
    ];

    it.each(faults)('$name', async (fault) => {
      // Only the fault is served: any request beyond it would get a 404 and show up in the count.
      server.enqueue(harness.path, ...fault.replies(harness));
      const output = await compact(history, { provider: provider(fault.settings) }, { round: 2 });
      expect(server.requests).toHaveLength(fault.attempts);
      // The SDK's retries come first, and only then the fallback.
      if (fault.attempts > 1) {
        const bodies = new Set(server.requests.map((request) => JSON.stringify(request.body)));
        expect(bodies.size).toBe(1);
      }
      for (const request of server.requests) expect(harness.requestIssues(request.body)).toEqual([]);
      expect(output.details?.failure).toMatch(fault.failure);
      expectNothingLost(output, fault.reason);
    });

    it("through a Compactor, records the fallback and leaves the caller's history untouched", async () => {
      server.enqueue(harness.path, harness.serverError(10), harness.serverError(10));
      const before = structuredClone(history);
      const compactor = createCompactor({
        strategy: createSummarization({ provider: provider({ maxRetries: 1 }) }),
        budget: { contextWindow: target, reservedOutputTokens: 0, safetyMargin: 0, trigger: false, target },
        counter,
      });
      const result = await compactor.compact(history);

      expect(history).toEqual(before);
      expect(result.compacted).toBe(true);
      expect(result.messages).not.toBe(history);
      expect(result.event).toMatchObject({ usedFallback: false, failures: [], strategy: 'summarization' });
      expect(result.event!.details).toMatchObject({ fallback: 'extractive', reason: 'provider-error' });
      expect(server.requests).toHaveLength(2);
      expect(result.messages).toContain(history.at(-1));
      expect(textOf(summaryOf(result.messages))).toContain(earlierSummary);
    });
  });
});
