import type { ConversationCompaction } from '@compaction/agent-loop';
import { CompactionError, type CompactionEvent, type TokenEstimator } from '@compaction/core';
import fc from 'fast-check';
import { expect } from 'vitest';
import { startTestServer, type TestServer } from './loopback-server.js';
import { type AgentScript, readFileOutput, type ScriptedExchange } from './scripted-agent.js';

/** One generated agent loop. */
interface ScriptedConversationScenario {
  /** Tool calls of each answer before the final one (its length is the script's `toolSteps`). */
  calls: number[];
  /** Line counts of the `read_file` outputs, used in turn. */
  lineCounts: number[];
  /** The answer whose first attempt is refused as too long, if any. */
  overflowAt: number | undefined;
  contextWindow: number;
  /** The budget's trigger; the target is 0.2 below it. */
  trigger: number;
}

/** What the property reads of a provider conversation. */
export interface ScriptedConversation {
  readonly compactor: { readonly budget: { readonly limit: number } };
  readonly compactions: readonly CompactionEvent[];
}

/** The provider-specific parts of {@link checkScriptedConversationProperty}. */
export interface ScriptedConversationPropertySettings<Conversation extends ScriptedConversation, Answer> {
  /** Range of the generated context windows. */
  contextWindow: { min: number; max: number };
  /** Counts the tokens the scripted server reports. */
  estimator: TokenEstimator;
  /** Compaction settings of the conversations; each run sets the budget from its scenario. */
  compaction: Omit<ConversationCompaction, 'budget'>;
  /** Generated loops. Default 25. */
  numRuns?: number;
  /** Scripts the model on the server (the adapter's wrapper of `scriptAgentAnswers`). */
  script: (server: TestServer, script: AgentScript) => ScriptedExchange[];
  /**
   * Creates the conversation on the server with these compaction settings (the scenario's window and trigger,
   * target 0.2 below), and returns the initial messages it was given, which must be unchanged after the run.
   */
  create: (
    server: TestServer,
    compaction: ConversationCompaction,
  ) =>
    | { conversation: Conversation; initial: unknown }
    | Promise<{ conversation: Conversation; initial: unknown }>;
  /** Runs the agent loop to its end; every tool call is answered with `runTool(callId, path)`. */
  run: (conversation: Conversation, runTool: (callId: string, path: string) => string) => Promise<Answer>;
  /** Asserts that the last answer is the model's final one. */
  expectFinished: (answer: Answer) => void;
  /** Problems that make a request body invalid for the API; empty when valid. */
  requestProblems: (body: unknown) => string[];
  /** The tool results in the conversation's full history, by the call they answer. */
  toolResults: (conversation: Conversation) => Array<{ callId: string; content: unknown }>;
}

/**
 * The property every provider conversation keeps, over generated tool loops on a scripted server (calls per
 * answer, output sizes, window, trigger, an optional overflow refusal): the loop ends with the model's final
 * answer or a typed `CompactionError` (an overflow retry that cannot get small enough), never a crash; every
 * request is valid for the API and, unless refused, within the budget's limit (2% estimation slack); a
 * refused answer leads to exactly one `overflow` compaction; the caller's initial messages are unchanged;
 * and the full history keeps every tool output verbatim.
 */
export async function checkScriptedConversationProperty<Conversation extends ScriptedConversation, Answer>(
  settings: ScriptedConversationPropertySettings<Conversation, Answer>,
): Promise<void> {
  const scenario = fc.record({
    calls: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 9 }),
    lineCounts: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
    overflowAt: fc.option(fc.integer({ min: 2, max: 9 }), { nil: undefined }),
    contextWindow: fc.integer(settings.contextWindow),
    trigger: fc.constantFrom(0.5, 0.7, 0.85),
  });
  await fc.assert(
    fc.asyncProperty(scenario, async (generated: ScriptedConversationScenario) => {
      const { calls, lineCounts, overflowAt, contextWindow, trigger } = generated;
      const server = await startTestServer();
      try {
        const exchanges = settings.script(server, {
          toolSteps: calls.length,
          calls,
          estimator: settings.estimator,
          contextWindow,
          ...(overflowAt === undefined ? {} : { overflowAt: [overflowAt] }),
        });
        const { conversation, initial } = await settings.create(server, {
          ...settings.compaction,
          budget: { contextWindow, trigger, target: trigger - 0.2 },
        });
        const snapshot = structuredClone(initial);
        const outputs = new Map<string, string>();
        let index = 0;
        const outcome = await settings
          .run(conversation, (callId, path) => {
            const output = readFileOutput(path, lineCounts[index++ % lineCounts.length]);
            outputs.set(callId, output);
            return output;
          })
          .then(
            (answer) => ({ answer }),
            (error: unknown) => ({ error }),
          );

        // A failure is a typed error (an overflow retry that cannot get small enough), never a crash.
        if ('error' in outcome) expect(CompactionError.isInstance(outcome.error)).toBe(true);
        else settings.expectFinished(outcome.answer);

        const { limit } = conversation.compactor.budget;
        for (const exchange of exchanges) {
          expect(settings.requestProblems(exchange.request.body)).toEqual([]);
          if (!exchange.overflowed) expect(exchange.inputTokens).toBeLessThanOrEqual(limit * 1.02);
        }
        if ('answer' in outcome && overflowAt !== undefined && overflowAt <= calls.length + 1) {
          expect(conversation.compactions.filter((event) => event.trigger === 'overflow')).toHaveLength(1);
        }
        expect(initial).toEqual(snapshot);
        const results = settings.toolResults(conversation);
        expect(results.map((result) => result.content)).toEqual(
          results.map((result) => outputs.get(result.callId)),
        );
        expect(results).toHaveLength(outputs.size);
      } finally {
        await server.close();
      }
    }),
    { numRuns: settings.numRuns ?? 25 },
  );
}
