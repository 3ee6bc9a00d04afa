import { CompactionError } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import type { AgentInputItem } from '@openai/agents';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentItemsArbitrary } from './__fixtures__/agent-items-arbitrary.js';
import { fromAgentItems, toAgentItems } from './agent-items.js';
import { CompactionSession } from './compaction-session.js';

const neverStrategy = {
  specificationVersion: 'v1' as const,
  name: 'never',
  compact: async () => {
    throw new Error('nothing should be compacted under the trigger');
  },
};

describe('Agents SDK items', () => {
  it('round-trip through core messages unchanged', () => {
    fc.assert(
      fc.property(agentItemsArbitrary, (items) => {
        const frozen = structuredClone(items);
        const back = toAgentItems(fromAgentItems(items));
        expect(back).toEqual(items);
        // Byte for byte once serialized, key order included: a prompt cache sees the same prefix.
        expect(JSON.stringify(back)).toBe(JSON.stringify(items));
        expect(items).toEqual(frozen);
      }),
    );
  });

  it('come back unchanged from a session that has nothing to compact', async () => {
    await fc.assert(
      fc.asyncProperty(agentItemsArbitrary, async (items) => {
        const session = new CompactionSession({
          strategy: neverStrategy,
          budget: { contextWindow: 1_000_000 },
        });
        await session.addItems(items);
        expect(await session.getItems()).toEqual(items);
        expect(await session.getItems(2)).toEqual(items.slice(-2));
      }),
    );
  });

  it('stay valid through a compaction: every result after its call, the task first', async () => {
    await fc.assert(
      fc.asyncProperty(agentItemsArbitrary, async (items) => {
        // A window small enough that most generated conversations cross the trigger.
        const budget = {
          contextWindow: 600,
          reservedOutputTokens: 0,
          safetyMargin: 0,
          trigger: 0.3,
          target: 0.2,
        };
        const session = new CompactionSession({ strategy: createSlidingWindow(), budget });
        await session.addItems(items);
        let compacted: AgentInputItem[];
        try {
          compacted = await session.getItems();
        } catch (error) {
          // A history whose kept opening alone is over the target cannot be compacted: a typed error says so.
          expect(CompactionError.isInstance(error)).toBe(true);
          return;
        }
        const opening = items.findIndex((item) => 'role' in item && item.role === 'user');
        expect(compacted.slice(0, opening + 1)).toEqual(items.slice(0, opening + 1));
        const called = new Set<string>();
        for (const item of compacted) {
          if (item.type === 'function_call') called.add(item.callId);
          if (item.type === 'function_call_result') expect(called.has(item.callId)).toBe(true);
        }
        const answered = new Set(
          compacted.flatMap((item) => (item.type === 'function_call_result' ? [item.callId] : [])),
        );
        expect([...called].filter((callId) => !answered.has(callId))).toEqual([]);
      }),
    );
  });

  it('keep a function call and its text result as a call and a result strategies can see', () => {
    const messages = fromAgentItems([
      { role: 'user', content: 'Read a.ts' },
      {
        type: 'function_call',
        callId: 'call_1',
        name: 'read_file',
        arguments: '{"path":"a.ts"}',
        status: 'completed',
      },
      {
        type: 'function_call_result',
        callId: 'call_1',
        name: 'read_file',
        status: 'completed',
        output: { type: 'text', text: 'export const a = 1;' },
      },
    ]);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[1]!.content[0]).toMatchObject({
      type: 'tool-call',
      toolCallId: 'call_1',
      toolName: 'read_file',
    });
    expect(messages[2]!.content[0]).toMatchObject({ type: 'tool-result', toolCallId: 'call_1' });
  });
});
