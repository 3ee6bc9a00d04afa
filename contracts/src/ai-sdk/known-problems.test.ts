import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StrategyUnderTest, strategiesUnderTest } from '../strategies-under-test.js';
import { type AiSdkCaseVerdict, checkAiSdkCase, runBaseline } from './ai-sdk-contract-case.js';
import { renderConversation } from './ai-sdk-conversation.js';
import type { ConversationPlan, RoundPlan } from './ai-sdk-conversation-plan.js';
import { LoopbackProvider } from './loopback-provider.js';

// Bugs the AI SDK check found (a marker merged ahead of thinking, the tool loop the model is inside dropped),
// each shown on one small conversation: they are fixed, and these tests keep them so.

let provider: LoopbackProvider;
beforeAll(async () => {
  provider = await LoopbackProvider.start();
});
afterAll(() => provider.close());

const strategy = (name: string): StrategyUnderTest =>
  strategiesUnderTest.find((entry) => entry.name === name)!;

const longOutput = (line: string) => `${line}\n`.repeat(400);

const thought = (text: string) => ({ text, redacted: false, summaryParts: 1 });

const readRound = (followUp: string | null): RoundPlan => ({
  kind: 'tools',
  reasoning: [thought('Read the file before changing it.')],
  text: 'Reading src/index.ts.',
  calls: [
    {
      name: 'read_file',
      input: { path: 'src/index.ts' },
      output: { type: 'text', value: longOutput('export const answer = compute(40, 2);') },
      approval: 'none',
    },
  ],
  splitResults: false,
  followUp: followUp === null ? null : { text: followUp, attachment: 'none', asString: true },
});

const testRound: RoundPlan = {
  kind: 'tools',
  reasoning: [thought('Run the tests to see what fails.')],
  text: null,
  calls: [
    {
      name: 'run_tests',
      input: { command: 'npm test' },
      output: { type: 'text', value: longOutput('FAIL src/index.test.ts > computes the answer') },
      approval: 'none',
    },
  ],
  splitResults: false,
  followUp: null,
};

function anthropicPlan(rounds: RoundPlan[]): ConversationPlan {
  return {
    target: 'anthropic',
    system: 'You are a coding agent working in a TypeScript repository.',
    systemAsOption: false,
    cacheBreakpoints: false,
    thinking: true,
    store: false,
    task: { text: 'Fix the failing test in src/index.test.ts.', attachment: 'none', asString: true },
    rounds,
    newest: { text: 'Now make the error message clearer too.', attachment: 'none', asString: true },
  };
}

interface Reproduction {
  problem: string;
  plan: ConversationPlan;
  strategy: string;
  targetShare: number;
}

const answerRound: RoundPlan = {
  kind: 'answer',
  reasoning: [thought('The fix is in compute().')],
  answer: 'compute() added instead of multiplying; fixed.',
  asString: false,
  generatedFile: false,
  followUp: null,
};

const reproductions = {
  // Sliding-window writes its removal marker as an assistant message right before the kept assistant
  // message, which opens with signed thinking; the Anthropic provider joins the two into one turn that opens
  // with text, and the API refuses it.
  marker: {
    problem: 'marker-merged-ahead-of-thinking',
    plan: anthropicPlan([readRound('Also look at the tests.'), testRound, answerRound]),
    strategy: 'sliding-window',
    targetShare: 0.25,
  },
  // The newest user message right after tool results is one Anthropic turn with them (the request is inside
  // that tool loop), but strategies see two messages and drop the loop, with its thinking, while keeping the
  // newest request.
  loop: {
    problem: 'newest-request-after-tool-results-drops-loop',
    plan: anthropicPlan([readRound(null), testRound]),
    strategy: 'pruning (no task, no recent turns, no markers)',
    targetShare: 0.25,
  },
  // A short conversation compacted hard: at the second step, the request ends inside the tool loop the
  // loopback server started, its count is anchored on the reported input tokens (tool definitions included)
  // and over the trigger again, and the strategy drops the loop the model is waiting on.
  ongoingLoop: {
    problem: 'ongoing-tool-loop-dropped',
    plan: anthropicPlan([
      { ...answerRound, followUp: { text: 'Good. Does lint pass too?', attachment: 'none', asString: true } },
      { ...answerRound, answer: 'Lint passes.' },
    ]),
    strategy: 'pruning (no task, no recent turns, no markers)',
    targetShare: 0.25,
  },
} satisfies Record<string, Reproduction>;

describe.each(['prepare-step', 'middleware'] as const)('known AI SDK bugs, through %s', (integration) => {
  const verdicts = new Map<Reproduction, AiSdkCaseVerdict>();
  beforeAll(async () => {
    for (const reproduction of Object.values(reproductions)) {
      const baseline = await runBaseline(provider, renderConversation(reproduction.plan));
      if (baseline.violations.length > 0)
        throw new Error(`invalid baseline: ${JSON.stringify(baseline.violations)}`);
      const verdict = await checkAiSdkCase(provider, baseline, {
        strategy: strategy(reproduction.strategy),
        integration,
        targetShare: reproduction.targetShare,
      });
      if (!verdict.compacted) throw new Error(`${reproduction.problem}: nothing was compacted`);
      verdicts.set(reproduction, verdict);
    }
  });
  const violationsOf = (reproduction: Reproduction) => {
    const verdict = verdicts.get(reproduction)!;
    return [...verdict.violations, ...verdict.known.map(({ violation }) => violation)];
  };

  it('finds no violation but those of the problem each conversation shows', () => {
    for (const reproduction of Object.values(reproductions)) {
      const verdict = verdicts.get(reproduction)!;
      expect(verdict.violations).toEqual([]);
      expect(new Set(verdict.known.map(({ problem }) => problem))).toEqual(
        new Set(verdict.known.length === 0 ? [] : [reproduction.problem]),
      );
    }
  });

  // Bug marker-merged-ahead-of-thinking.
  it('sliding-window keeps each Anthropic assistant turn opening with its thinking', () => {
    expect(violationsOf(reproductions.marker)).toEqual([]);
  });

  // Bug newest-request-after-tool-results-drops-loop.
  it('a strategy keeps the tool loop the newest request answers, with its thinking', () => {
    expect(violationsOf(reproductions.loop)).toEqual([]);
  });

  // Bug ongoing-tool-loop-dropped.
  it('a strategy keeps the tool loop the request ends in, with its thinking', () => {
    expect(violationsOf(reproductions.ongoingLoop)).toEqual([]);
  });
});
