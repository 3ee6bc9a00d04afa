import { findMessageIssues, InvalidMessagesError, type Message, repairHistory } from '@compaction/core';
import { groupTurns } from '@compaction/strategy-kit';
import { conversationArbitrary } from '@compaction/testing';
import { missingTranscriptsMessage } from '@compaction/testing/transcripts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicRequestArbitrary } from './__fixtures__/anthropic-request-arbitrary.js';
import { readClaudeCodeRequests } from './__fixtures__/claude-code-requests.js';
import { normalizeForAnthropic } from './__fixtures__/normalize-for-anthropic.js';
import { transcriptsDirectory } from './__fixtures__/transcripts-directory.js';
import { blockReferences } from './anthropic-block-references.js';
import type { AnthropicMessagesRequest, AnthropicRequest } from './anthropic-request.js';
import { fromAnthropicRequest } from './from-anthropic-request.js';
import { defaultFirstUserText, toAnthropicRequest } from './to-anthropic-request.js';

const runs = Number(process.env.CONFORMANCE_RUNS ?? 200);

/** The Messages API rules a converted request must keep. */
function expectValidRequest(converted: AnthropicMessagesRequest): void {
  const request = converted as unknown as AnthropicRequest;
  expect(request.messages.find((message) => message.role !== 'system')?.role ?? 'user').toBe('user');
  for (const [index, message] of request.messages.entries()) {
    if (typeof message.content === 'string') continue;
    const results = message.content.filter((block) => block.type === 'tool_result');
    if (results.length === 0) continue;
    expect(message.role).toBe('user');
    const previousAssistant = request.messages.slice(0, index).findLast((item) => item.role === 'assistant');
    const calls = Array.isArray(previousAssistant?.content)
      ? previousAssistant.content.filter((block) => block.type === 'tool_use').map((block) => block.id)
      : [];
    for (const result of results) expect(calls).toContain(result.tool_use_id);
  }
}

describe('Anthropic converters on generated conversations', () => {
  it('from(to(x)) equals x, up to the documented normalization', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (messages) => {
        const startsWithAssistant =
          messages.find((message) => message.role !== 'system')?.role === 'assistant';
        fc.pre(!startsWithAssistant);
        expect(fromAnthropicRequest(toAnthropicRequest(messages))).toEqual(normalizeForAnthropic(messages));
      }),
      { numRuns: runs },
    );
  });

  it('to(from(r)) equals r for requests built from generated conversations', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (messages) => {
        const request = toAnthropicRequest(messages);
        expectValidRequest(request);
        expect(toAnthropicRequest(fromAnthropicRequest(request))).toEqual(request);
      }),
      { numRuns: runs },
    );
  });

  it('a compacted history (whole turns dropped, then repaired) converts to a valid request or a typed error', () => {
    fc.assert(
      fc.property(conversationArbitrary(), fc.array(fc.boolean(), { maxLength: 40 }), (messages, keep) => {
        const turns = groupTurns(messages);
        const kept: Message[] = turns
          .filter((turn, index) => messages[turn.start]?.role === 'system' || keep[index] !== false)
          .flatMap((turn) => messages.slice(turn.start, turn.end));
        const repaired = repairHistory(kept).messages;
        try {
          const request = toAnthropicRequest(repaired);
          expectValidRequest(request);
          if (
            request.messages[0] !== undefined &&
            repaired.find((message) => message.role !== 'system')?.role === 'assistant'
          ) {
            expect(request.messages[0].content).toEqual([{ type: 'text', text: defaultFirstUserText }]);
          }
        } catch (error) {
          expect(InvalidMessagesError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: runs },
    );
  });
});

const directory = transcriptsDirectory();
const claudeCode = directory === undefined ? [] : readClaudeCodeRequests(`${directory}/claude-code`);

describe.skipIf(directory === undefined)('Anthropic converters on real Claude Code sessions', () => {
  it('finds the sessions', () => {
    expect(claudeCode.length).toBeGreaterThan(0);
  });

  it.each(claudeCode.map((session) => [session.name, session.request] as const))(
    'to(from(r)) equals r for %s',
    (_name, request) => {
      const messages = fromAnthropicRequest(request);
      expect(JSON.stringify(toAnthropicRequest(messages))).toBe(JSON.stringify(request));
    },
  );
});

if (directory === undefined) {
  describe('Anthropic converters on real Claude Code sessions', () => {
    it.skip(missingTranscriptsMessage, () => {});
  });
}

describe('Anthropic converters on requests of every shape the SDK types allow', () => {
  it('to(from(r)) serializes exactly as r, key order included', () => {
    fc.assert(
      fc.property(anthropicRequestArbitrary(), (request) => {
        const messages = fromAnthropicRequest(request);
        expect(findMessageIssues(messages)).toEqual([]);
        expect(JSON.stringify(toAnthropicRequest(messages))).toBe(JSON.stringify(request));
      }),
      { numRuns: runs },
    );
  });

  it('a compacted request keeps every block referring to a server tool with the turn that opened it', () => {
    fc.assert(
      fc.property(anthropicRequestArbitrary(), fc.array(fc.boolean(), { maxLength: 40 }), (request, keep) => {
        const messages = fromAnthropicRequest(request);
        const kept = groupTurns(messages)
          .filter((turn, index) => messages[turn.start]?.role === 'system' || keep[index] !== false)
          .flatMap((turn) => messages.slice(turn.start, turn.end));
        let compacted: AnthropicRequest;
        try {
          compacted = toAnthropicRequest(repairHistory(kept).messages) as unknown as AnthropicRequest;
        } catch (error) {
          expect(InvalidMessagesError.isInstance(error)).toBe(true);
          return;
        }
        expectValidRequest(compacted as unknown as AnthropicMessagesRequest);
        const opened = new Set<string>();
        for (const message of compacted.messages) {
          if (typeof message.content === 'string') continue;
          for (const block of message.content) {
            const { opens, refersTo } = blockReferences(block);
            for (const id of refersTo) {
              if (request.messages.some((original) => opensId(original, id))) expect(opened).toContain(id);
            }
            if (opens !== undefined) opened.add(opens);
          }
        }
      }),
      { numRuns: runs },
    );
  });
});

function opensId(message: AnthropicRequest['messages'][number], id: string): boolean {
  return (
    Array.isArray(message.content) && message.content.some((block) => blockReferences(block).opens === id)
  );
}
