import { findMessageIssues, InvalidMessagesError, type Message, repairHistory } from '@compaction/core';
import { groupTurns } from '@compaction/strategy-kit';
import { conversationArbitrary, oddlyChanged } from '@compaction/testing';
import { missingTranscriptsMessage } from '@compaction/testing/transcripts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeForOpenAI } from './__fixtures__/normalize-for-openai.js';
import { openAIChatMessagesArbitrary } from './__fixtures__/openai-chat-messages-arbitrary.js';
import { openAIResponsesInputArbitrary } from './__fixtures__/openai-responses-input-arbitrary.js';
import { readChatTranscripts } from './__fixtures__/openai-transcripts.js';
import { transcriptsDirectory } from './__fixtures__/transcripts-directory.js';
import { fromOpenAIChatMessages } from './from-openai-chat-messages.js';
import { fromOpenAIResponsesInput } from './from-openai-responses-input.js';
import type { OpenAIChatMessage, OpenAIChatMessageParam } from './openai-chat-request.js';
import { itemReferences } from './openai-responses-item-references.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';
import { toOpenAIChatMessages } from './to-openai-chat-messages.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

const runs = Number(process.env.CONFORMANCE_RUNS ?? 200);

/** Chat Completions rules: every tool message answers a call of the assistant message before it. */
function expectValidChat(converted: OpenAIChatMessageParam[]): void {
  const messages = converted as unknown as OpenAIChatMessage[];
  let open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'tool') expect(open.has(message.tool_call_id as string)).toBe(true);
    else open = new Set((message.tool_calls ?? []).map((call) => call.id));
    if (message.role === 'assistant') {
      expect(
        message.content !== null || (message.tool_calls?.length ?? 0) > 0 || message.refusal !== undefined,
      ).toBe(true);
    }
  }
}

function compacted(messages: Message[], keep: boolean[]): Message[] {
  const kept = groupTurns(messages)
    .filter((turn, index) => messages[turn.start]?.role === 'system' || keep[index] !== false)
    .flatMap((turn) => messages.slice(turn.start, turn.end));
  return repairHistory(kept).messages;
}

describe('Chat Completions converters on generated conversations', () => {
  it('from(to(x)) equals x, up to the documented normalization', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (messages) => {
        expect(fromOpenAIChatMessages(toOpenAIChatMessages(messages))).toEqual(
          normalizeForOpenAI(messages, 'chat'),
        );
      }),
      { numRuns: runs },
    );
  });

  it('to(from(r)) equals r, and the messages are valid', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (messages) => {
        const chat = toOpenAIChatMessages(messages);
        expectValidChat(chat);
        expect(toOpenAIChatMessages(fromOpenAIChatMessages(chat))).toEqual(chat);
      }),
      { numRuns: runs },
    );
  });

  it('a compacted history converts to valid messages or a typed error', () => {
    fc.assert(
      fc.property(conversationArbitrary(), fc.array(fc.boolean(), { maxLength: 40 }), (messages, keep) => {
        try {
          expectValidChat(toOpenAIChatMessages(compacted(messages, keep)));
        } catch (error) {
          expect(InvalidMessagesError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: runs },
    );
  });
});

describe('Responses converters on generated conversations', () => {
  it('from(to(x)) equals x, up to the documented normalization', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (messages) => {
        expect(fromOpenAIResponsesInput(toOpenAIResponsesInput(messages))).toEqual(
          normalizeForOpenAI(messages, 'responses'),
        );
      }),
      { numRuns: runs },
    );
  });

  it('to(from(r)) equals r', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (messages) => {
        const input = toOpenAIResponsesInput(messages);
        expect(toOpenAIResponsesInput(fromOpenAIResponsesInput(input))).toEqual(input);
      }),
      { numRuns: runs },
    );
  });

  it('a compacted history converts to a valid input or a typed error', () => {
    fc.assert(
      fc.property(conversationArbitrary(), fc.array(fc.boolean(), { maxLength: 40 }), (messages, keep) => {
        try {
          const input = toOpenAIResponsesInput(compacted(messages, keep));
          const calls = new Set<string>();
          for (const item of typeof input === 'string' ? [] : (input as unknown as OpenAIResponsesItem[])) {
            if (item.type === 'function_call') calls.add(item.call_id as string);
            if (item.type === 'function_call_output') expect(calls.has(item.call_id as string)).toBe(true);
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
const transcripts = directory === undefined ? [] : readChatTranscripts(directory);

describe.skipIf(directory === undefined)(
  'Chat Completions converters on real tau-bench and OpenHands conversations',
  () => {
    it('finds the conversations', () => {
      expect(transcripts.length).toBeGreaterThan(1);
    });

    it.each(transcripts.map((transcript) => [transcript.name, transcript.messages] as const))(
      'to(from(r)) equals r for %s',
      (_name, messages) => {
        const core = fromOpenAIChatMessages(messages);
        expect(JSON.stringify(toOpenAIChatMessages(core))).toBe(JSON.stringify(messages));
        // Tool results are named after their calls, and parsed inputs are plain JSON.
        for (const message of core) {
          if (message.role === 'tool') expect(message.content[0]!.toolName).not.toBe('');
        }
      },
    );

    it.each(transcripts.map((transcript) => [transcript.name, transcript.messages] as const))(
      'the same conversation survives a trip through the Responses shape for %s',
      (_name, messages) => {
        const core = fromOpenAIChatMessages(messages);
        const again = fromOpenAIResponsesInput(toOpenAIResponsesInput(core));
        expect(toOpenAIResponsesInput(again)).toEqual(toOpenAIResponsesInput(core));
      },
    );
  },
);

if (directory === undefined) {
  describe('Chat Completions converters on real conversations', () => {
    it.skip(missingTranscriptsMessage, () => {});
  });
}

/** Converts, or refuses with a typed error; never crashes, never gives malformed core messages. */
function convertsOrRefuses(convert: (input: never) => Message[]) {
  return (input: unknown) => {
    try {
      const converted = convert(input as never);
      expect(findMessageIssues(converted)).toEqual([]);
    } catch (error) {
      expect(InvalidMessagesError.isInstance(error)).toBe(true);
    }
  };
}

describe('Chat Completions converters on messages of every shape the SDK types allow', () => {
  it('to(from(m)) serializes exactly as m, key order included', () => {
    fc.assert(
      fc.property(openAIChatMessagesArbitrary(), (messages) => {
        const converted = fromOpenAIChatMessages(messages);
        expect(findMessageIssues(converted)).toEqual([]);
        expect(JSON.stringify(toOpenAIChatMessages(converted))).toBe(JSON.stringify(messages));
      }),
      { numRuns: runs },
    );
  });

  it('from(m) gives valid core messages or a typed error, whatever odd value m holds', () => {
    fc.assert(
      fc.property(oddlyChanged(openAIChatMessagesArbitrary()), convertsOrRefuses(fromOpenAIChatMessages)),
      {
        numRuns: runs * 2,
      },
    );
    fc.assert(fc.property(fc.anything({ maxDepth: 4 }), convertsOrRefuses(fromOpenAIChatMessages)));
  });
});

describe('Responses converters on inputs of every shape the SDK types allow', () => {
  it('to(from(i)) serializes exactly as i, key order included', () => {
    fc.assert(
      fc.property(openAIResponsesInputArbitrary(), (input) => {
        const converted = fromOpenAIResponsesInput(input);
        expect(findMessageIssues(converted)).toEqual([]);
        expect(JSON.stringify(toOpenAIResponsesInput(converted))).toBe(JSON.stringify(input));
      }),
      { numRuns: runs },
    );
  });

  it('from(i) gives valid core messages or a typed error, whatever odd value i holds', () => {
    fc.assert(
      fc.property(oddlyChanged(openAIResponsesInputArbitrary()), convertsOrRefuses(fromOpenAIResponsesInput)),
      { numRuns: runs * 2 },
    );
    fc.assert(fc.property(fc.anything({ maxDepth: 4 }), convertsOrRefuses(fromOpenAIResponsesInput)));
  });

  it('a compacted input answers every call it keeps, keeps what items refer to, or fails with a typed error', () => {
    fc.assert(
      fc.property(
        openAIResponsesInputArbitrary(),
        fc.array(fc.boolean(), { maxLength: 40 }),
        (input, keep) => {
          let compactedInput: OpenAIResponsesItem[];
          try {
            const written = toOpenAIResponsesInput(compacted(fromOpenAIResponsesInput(input), keep));
            compactedInput = typeof written === 'string' ? [] : (written as unknown as OpenAIResponsesItem[]);
          } catch (error) {
            expect(InvalidMessagesError.isInstance(error)).toBe(true);
            return;
          }
          const originalIds = new Set(input.flatMap((item) => itemReferences(item).opens));
          const opened = new Set<string>();
          for (const item of compactedInput) {
            for (const id of itemReferences(item).refersTo)
              if (originalIds.has(id)) expect(opened).toContain(id);
            const answered = answeredCall(item);
            if (answered !== undefined && originalIds.has(answered)) expect(opened).toContain(answered);
            for (const id of itemReferences(item).opens) opened.add(id);
          }
        },
      ),
      { numRuns: runs },
    );
  });
});

/** The call an answer item answers. */
function answeredCall(item: OpenAIResponsesItem): string | undefined {
  if (item.type === 'mcp_approval_response') return item.approval_request_id as string;
  if (item.type === 'local_shell_call_output') return item.id as string;
  if (item.type?.endsWith('_output') && item.type !== 'program_output') return item.call_id as string;
  return undefined;
}
