import { checkProviderContractCase, type ProviderContractCase } from '@compaction/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { anthropicConverters } from './provider-converters.js';
import { strategiesUnderTest } from './strategies-under-test.js';

// The bugs the AI SDK check found were not the AI SDK's alone: the same strategies broke the same rules
// through the core Anthropic converter. They are fixed; these tests keep them so.

const strategy = (name: string) => strategiesUnderTest.find((entry) => entry.name === name)!;

const thinking = (text: string, signature: string) => ({ type: 'thinking', thinking: text, signature });

const settings = {
  model: 'claude-sonnet-4-5',
  max_tokens: 8192,
  thinking: { type: 'enabled', budget_tokens: 2048 },
  tools: [{ name: 'read_file', input_schema: { type: 'object' } }],
};
const task = { role: 'user', content: 'Fix the failing test in src/index.test.ts.' };
const readFile = (id: string, signature: string) => ({
  role: 'assistant',
  content: [
    thinking('Read the file.', signature),
    { type: 'tool_use', id, name: 'read_file', input: { path: 'src/index.ts' } },
  ],
});
const fileContent = (id: string, lines: number) => ({
  role: 'user',
  content: [
    { type: 'tool_result', tool_use_id: id, content: 'export const a = compute(40, 2);\n'.repeat(lines) },
  ],
});

/** A long tool result, then an answer that opens with thinking, then the newest request. */
const answeredAfterTools = {
  ...settings,
  messages: [
    task,
    readFile('toolu_1', 'signature-1'),
    fileContent('toolu_1', 400),
    {
      role: 'assistant',
      content: [
        thinking('Multiply instead.', 'signature-2'),
        { type: 'text', text: 'Fixed: compute() multiplies.' },
      ],
    },
    { role: 'user', content: 'Now make the error message clearer too.' },
  ],
};

/** A request whose last user message answers the tool call of the assistant turn before it. */
const endsInToolLoop = {
  ...settings,
  messages: [
    task,
    readFile('toolu_1', 'signature-1'),
    fileContent('toolu_1', 400),
    { role: 'user', content: 'Now fix it.' },
    readFile('toolu_2', 'signature-2'),
    fileContent('toolu_2', 1),
  ],
};

/** The newest request as its own user message right after tool results: the API joins them in one turn. */
const newestAfterToolResults = {
  ...settings,
  messages: [
    task,
    readFile('toolu_1', 'signature-1'),
    fileContent('toolu_1', 400),
    readFile('toolu_2', 'signature-2'),
    fileContent('toolu_2', 1),
    { role: 'user', content: 'Now make the error message clearer too.' },
  ],
};

/** A strategy run on a request, with what must hold before the check. */
async function verdictOf(
  name: string,
  request: unknown,
  targetShare: number,
  expectedRules: string[],
): Promise<ProviderContractCase> {
  const verdict = await checkProviderContractCase(
    { strategy: strategy(name).strategy },
    anthropicConverters,
    request,
    targetShare,
  );
  if (!verdict.compacted) throw new Error(`${name} did not compact`);
  // Whatever is found must be the bug named: anything else would make the `it.fails` below pass wrongly.
  const found = [...(verdict.problem ?? '').matchAll(/\[([a-z.-]+)\]/g)].map((match) => match[1]!);
  const unexpected = found.filter((rule) => !expectedRules.includes(rule));
  if (unexpected.length > 0) throw new Error(`${name}: unexpected violations ${verdict.problem}`);
  return verdict;
}

describe('known bugs through the core Anthropic converter', () => {
  const verdicts = new Map<string, ProviderContractCase>();
  beforeAll(async () => {
    verdicts.set(
      'marker',
      await verdictOf('sliding-window', answeredAfterTools, 0.25, ['anthropic.thinking-first']),
    );
    // A target below the loop's own size.
    verdicts.set(
      'loop',
      await verdictOf('pruning (no task, no recent turns, no markers)', endsInToolLoop, 0.005, [
        'compacted.tool-loop-thinking-kept',
      ]),
    );
    verdicts.set(
      'newest',
      await verdictOf('pruning (no task, no recent turns, no markers)', newestAfterToolResults, 0.25, [
        'compacted.tool-loop-thinking-kept',
      ]),
    );
  });

  // Bug marker-merged-ahead-of-thinking: the removal marker is written as an assistant message right before
  // the kept answer, which opens with thinking, and the API reads the two as one turn that opens with text.
  it('sliding-window keeps each assistant turn opening with its thinking', () => {
    expect(verdicts.get('marker')!.problem).toBeUndefined();
  });

  // Bug ongoing-tool-loop-dropped: with a target below the loop's own size, the loop the model waits on goes.
  it('pruning without recent turns keeps the tool loop the request ends in', () => {
    expect(verdicts.get('loop')!.problem).toBeUndefined();
  });

  // Bug newest-request-after-tool-results-drops-loop: the newest request is read as a message of its own and
  // kept, the tool loop its turn continues is dropped.
  it('pruning without recent turns keeps the tool loop the newest request is sent with', () => {
    expect(verdicts.get('newest')!.problem).toBeUndefined();
  });
});
