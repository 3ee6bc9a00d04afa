import { anthropic, createAnthropic } from '@ai-sdk/anthropic';
import { type CompactionStrategy, compactionMetadataOf, latestUserMessageIndex } from '@compaction/core';
import { groupTurns } from '@compaction/strategy-kit';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compactionPrepareStep } from '../integration/compaction-prepare-step.js';
import { fromAiSdk, toAiSdk } from './ai-sdk-messages.js';
import { joinReferencedTurns } from './join-referenced-turns.js';

type Block = { type: string; id?: string; tool_use_id?: string; caller?: { tool_id?: string } };
interface RecordedBody {
  messages: Array<{ role: string; content: Block[] | string }>;
}

/** Messages API answers, one per request: programmatic tool calling, then the code execution's result. */
const answers = [
  {
    content: [
      { type: 'text', text: 'Querying.' },
      {
        type: 'server_tool_use',
        id: 'srvtoolu_1',
        name: 'code_execution',
        input: { code: 'print(await sales())' },
      },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'sales',
        input: { region: 'west' },
        caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_1' },
      },
    ],
    stop_reason: 'tool_use',
  },
  {
    content: [
      {
        type: 'code_execution_tool_result',
        tool_use_id: 'srvtoolu_1',
        content: { type: 'code_execution_result', stdout: '12', stderr: '', return_code: 0, content: [] },
      },
      { type: 'text', text: 'West sold 12.' },
    ],
    stop_reason: 'end_turn',
  },
];

function recordingAnthropic() {
  const bodies: RecordedBody[] = [];
  const provider = createAnthropic({
    apiKey: 'test-key',
    fetch: async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      const answer = answers[Math.min(bodies.length - 1, answers.length - 1)]!;
      return new Response(
        JSON.stringify({
          id: `msg_${bodies.length}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          stop_sequence: null,
          usage: { input_tokens: 40, output_tokens: 2 },
          container: { id: 'container_1', expires_at: '2030-01-01T00:00:00Z' },
          ...answer,
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    },
  });
  return { model: provider('claude-sonnet-4-5'), bodies };
}

const tools = {
  code_execution: anthropic.tools.codeExecution_20260120(),
  sales: tool({
    description: 'Sales of a region.',
    inputSchema: z.object({ region: z.string() }),
    execute: async () => '12',
    providerOptions: { anthropic: { allowedCallers: ['code_execution_20260120'] } },
  }),
};

/** Drops the oldest turn after the first message: the kind of cut that split a programmatic span. */
const dropOldestTurn: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'drop-oldest-turn',
  async compact({ messages }) {
    const turns = groupTurns(messages);
    const newest = latestUserMessageIndex(messages);
    const dropped = turns.find((turn, index) => index > 0 && !(turn.start <= newest && newest < turn.end));
    if (dropped === undefined) return { messages: [...messages] };
    return { messages: [...messages.slice(0, dropped.start), ...messages.slice(dropped.end)] };
  },
};

/** Every reference of the request to a server tool points at a `server_tool_use` sent before it. */
function expectReferencesResolved(body: RecordedBody) {
  const opened = new Set<string>();
  for (const message of body.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.caller?.tool_id !== undefined) expect(opened).toContain(block.caller.tool_id);
      if (block.type.endsWith('_tool_result') && block.tool_use_id !== undefined) {
        expect(opened).toContain(block.tool_use_id);
      }
      if (block.type === 'server_tool_use' && block.id !== undefined) opened.add(block.id);
    }
  }
}

describe('a programmatic tool call spread over AI SDK steps', () => {
  async function history(): Promise<ModelMessage[]> {
    const { model } = recordingAnthropic();
    const first = await generateText({
      model,
      tools,
      messages: [{ role: 'user', content: 'How much did the west region sell?' }],
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    return [{ role: 'user', content: 'How much did the west region sell?' }, ...first.response.messages];
  }

  it('is one turn once converted: the later steps join the step that started the code execution', async () => {
    const messages = await history();
    const core = fromAiSdk(messages);
    expect(
      core.map((message) => [message.role, compactionMetadataOf(message)?.joinsPrevious === true]),
    ).toEqual([
      ['user', false],
      ['assistant', false],
      ['tool', true],
      ['assistant', true],
    ]);
    expect(groupTurns(core).map((turn) => [turn.start, turn.end])).toEqual([
      [0, 1],
      [1, 4],
    ]);
    // The mark is derived again on the way in; it is not written back.
    expect(toAiSdk(core)).toEqual(messages);
    expect(JSON.stringify(toAiSdk(core))).not.toContain('joinsPrevious');
  });

  it('gives a message marked once the same marked copy every time, and leaves the others as they are', async () => {
    const decoded = fromAiSdk(await history()).map((message) => {
      // The messages as decoding alone gives them, before any mark.
      const { compaction: _mark, ...metadata } = message.metadata ?? {};
      return Object.keys(metadata).length === 0
        ? { role: message.role, content: message.content }
        : { ...message, metadata };
    }) as ReturnType<typeof fromAiSdk>;
    const cache = new WeakMap();
    const once = joinReferencedTurns(decoded, cache);
    const again = joinReferencedTurns(decoded, cache);
    expect(again.every((message, index) => message === once[index])).toBe(true);
    expect(once[0]).toBe(decoded[0]);
    expect(once[3]).not.toBe(decoded[3]);
  });

  it('is dropped whole by compaction, so the request refers to no server tool it lacks', async () => {
    const messages = [...(await history()), { role: 'user' as const, content: 'And the east?' }];
    const { model, bodies } = recordingAnthropic();
    await generateText({
      model,
      tools,
      messages,
      maxRetries: 0,
      stopWhen: stepCountIs(1),
      prepareStep: compactionPrepareStep({
        strategy: dropOldestTurn,
        budget: { contextWindow: 100_000, trigger: 20, target: 10 },
      }),
    });
    // The span went whole; the two user messages left side by side are one user turn for Anthropic.
    expect(bodies[0]!.messages.map((message) => message.role)).toEqual(['user']);
    expectReferencesResolved(bodies[0]!);
  });
});
