import { describe, expect, it } from 'vitest';
import {
  anthropicRequest,
  anthropicToolLoopRequest,
  copy,
  openAIChatRequest,
  openAIResponsesRequest,
} from '../__fixtures__/provider-contract-requests.js';
import { compactedRequestViolations, type ProviderRequestFormat } from './compacted-request-violations.js';

// biome-ignore lint/suspicious/noExplicitAny: tests reach into plain JSON requests to break them.
type Request = any;

/** Each case compacts a valid original into a valid request that breaks exactly one rule between the two. */
const cases: Array<{
  format: ProviderRequestFormat;
  rule: string;
  original: () => Request;
  compact: (compacted: Request) => void;
}> = [
  {
    format: 'anthropic',
    rule: 'compacted.system-kept',
    original: anthropicRequest,
    compact: (request) => {
      request.system = 'You are a coding agent. Summary: ...';
    },
  },
  {
    format: 'anthropic',
    rule: 'compacted.settings-kept',
    original: anthropicRequest,
    compact: (request) => {
      request.tools[0].description = 'Runs commands.';
    },
  },
  {
    format: 'anthropic',
    rule: 'compacted.newest-user-request-kept',
    original: anthropicRequest,
    compact: (request) => {
      request.messages[4].content = 'Also update the changelog.\n\n[earlier turns summarized]';
    },
  },
  {
    format: 'anthropic',
    rule: 'compacted.nothing-invented',
    original: anthropicRequest,
    compact: (request) => {
      request.messages[1].content[1].id = 'toolu_renamed';
      request.messages[2].content[0].tool_use_id = 'toolu_renamed';
    },
  },
  {
    format: 'anthropic',
    rule: 'compacted.reasoning-unmodified',
    original: anthropicToolLoopRequest,
    compact: (request) => {
      request.messages[1].content[0].thinking = 'Look at the code first. (shortened)';
    },
  },
  {
    format: 'anthropic',
    rule: 'compacted.tool-loop-thinking-kept',
    original: anthropicToolLoopRequest,
    compact: (request) => {
      request.messages[3].content[0] = copy(request.messages[1].content[0]);
    },
  },
  {
    format: 'openai-chat',
    rule: 'compacted.system-kept',
    original: openAIChatRequest,
    compact: (request) => request.messages.shift(),
  },
  {
    format: 'openai-chat',
    rule: 'compacted.settings-kept',
    original: openAIChatRequest,
    compact: (request) => delete request.tools,
  },
  {
    format: 'openai-chat',
    rule: 'compacted.newest-user-request-kept',
    original: openAIChatRequest,
    // An older request of the original now stands after the newest one.
    compact: (request) =>
      request.messages.push({ role: 'assistant', content: 'Sure.' }, { ...request.messages[1] }),
  },
  {
    format: 'openai-chat',
    rule: 'compacted.nothing-invented',
    original: openAIChatRequest,
    compact: (request) => {
      request.messages[2].tool_calls[0].id = 'call_renamed';
      request.messages[3].tool_call_id = 'call_renamed';
    },
  },
  {
    format: 'openai-responses',
    rule: 'compacted.system-kept',
    original: openAIResponsesRequest,
    compact: (request) => {
      request.instructions = 'Summary so far: ...';
    },
  },
  {
    format: 'openai-responses',
    rule: 'compacted.settings-kept',
    original: openAIResponsesRequest,
    compact: (request) => {
      request.model = 'gpt-5-mini';
    },
  },
  {
    format: 'openai-responses',
    rule: 'compacted.newest-user-request-kept',
    original: openAIResponsesRequest,
    compact: (request) => request.input.pop(),
  },
  {
    format: 'openai-responses',
    rule: 'compacted.nothing-invented',
    original: openAIResponsesRequest,
    compact: (request) => {
      request.input[3].call_id = 'call_renamed';
      request.input[4].call_id = 'call_renamed';
    },
  },
  {
    format: 'openai-responses',
    rule: 'compacted.reasoning-unmodified',
    original: openAIResponsesRequest,
    compact: (request) => {
      request.input[2].encrypted_content = 'enc-1-shortened';
    },
  },
  {
    format: 'openai-responses',
    rule: 'compacted.reasoning-kept-with-item',
    original: openAIResponsesRequest,
    compact: (request) => request.input.splice(5, 1),
  },
];

describe('compactedRequestViolations', () => {
  for (const { format, rule, original, compact } of cases) {
    it(`${format}: reports ${rule} and only it`, () => {
      const before = original();
      expect(compactedRequestViolations(format, before, copy(before))).toEqual([]);
      const after = copy(before);
      compact(after);
      const violations = compactedRequestViolations(format, before, after);
      expect(violations.length).toBeGreaterThan(0);
      expect(new Set(violations.map((violation) => violation.rule))).toEqual(new Set([rule]));
    });
  }

  it('accepts a compaction that drops whole old turns and keeps every rule', () => {
    const before: Request = anthropicRequest();
    const after: Request = copy(before);
    after.messages.splice(1, 2);
    after.messages[1] = { role: 'assistant', content: '[2 earlier messages removed]' };
    expect(compactedRequestViolations('anthropic', before, after)).toEqual([]);
    const responses: Request = openAIResponsesRequest();
    const shorter: Request = copy(responses);
    shorter.input.splice(2, 3);
    expect(compactedRequestViolations('openai-responses', responses, shorter)).toEqual([]);
  });

  it('reports what the compacted request breaks in its own format', () => {
    const before: Request = anthropicRequest();
    const after: Request = copy(before);
    after.messages.splice(2, 1);
    expect(compactedRequestViolations('anthropic', before, after).map((violation) => violation.rule)).toEqual(
      ['anthropic.tool-use-answered'],
    );
    const chat: Request = openAIChatRequest();
    const withoutCall: Request = copy(chat);
    withoutCall.messages.splice(2, 1);
    expect(
      compactedRequestViolations('openai-chat', chat, withoutCall).map((violation) => violation.rule),
    ).toEqual(['openai-chat.tool-message-follows-call']);
  });

  it('accepts a string input answered by the same text as a one-part user message', () => {
    const before = { model: 'gpt-5', input: 'Fix the failing test.' };
    const after = {
      model: 'gpt-5',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Fix the failing test.' }] }],
    };
    expect(compactedRequestViolations('openai-responses', before, after)).toEqual([]);
  });

  it('reports an unreadable original or compacted request instead of throwing', () => {
    expect(compactedRequestViolations('anthropic', 'not a request', anthropicRequest())).toEqual([
      {
        rule: 'compacted.original-readable',
        path: '',
        message: 'the original request cannot be read: the request is not a JSON object',
      },
    ]);
    expect(
      compactedRequestViolations('openai-chat', openAIChatRequest(), { messages: 'x' }).map(
        (violation) => violation.rule,
      ),
    ).toEqual(['openai-chat.request-shape']);
  });
});

describe('a window the API compacted', () => {
  it('may bring item ids of its own up to its new compaction item, and only there', () => {
    const original: Request = openAIResponsesRequest();
    const window = [
      {
        type: 'message',
        id: 'msg_u1',
        role: 'user',
        content: [{ type: 'input_text', text: 'Fix the failing test.' }],
      },
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'opaque' },
    ];
    const compacted = { ...copy(original), input: [original.input[0], ...window, original.input.at(-1)] };
    expect(compactedRequestViolations('openai-responses', original, compacted)).toEqual([]);
    compacted.input.push({ type: 'message', id: 'msg_new', role: 'assistant', content: 'Invented.' });
    compacted.input.push({ role: 'user', content: 'Also update the changelog.' });
    expect(
      compactedRequestViolations('openai-responses', original, compacted).map(({ rule }) => rule),
    ).toEqual(['compacted.nothing-invented']);
  });
});

describe('the newest user request after compaction', () => {
  const rules = (format: ProviderRequestFormat, before: Request, after: Request) =>
    compactedRequestViolations(format, before, after).map((violation) => violation.rule);

  it('may share its turn or be followed by user content compaction added, such as a removal marker', () => {
    const marker = '[12 earlier messages removed to save context]';
    const anthropic: Request = anthropicRequest();
    const merged: Request = copy(anthropic);
    const newest = merged.messages.at(-1);
    const blocks =
      typeof newest.content === 'string' ? [{ type: 'text', text: newest.content }] : newest.content;
    newest.content = [{ type: 'text', text: marker }, ...blocks];
    expect(rules('anthropic', anthropic, merged)).not.toContain('compacted.newest-user-request-kept');
    const chat: Request = openAIChatRequest();
    const followed: Request = copy(chat);
    followed.messages.push({ role: 'user', content: marker });
    expect(rules('openai-chat', chat, followed)).not.toContain('compacted.newest-user-request-kept');
  });

  it('lets compaction drop a tool loop the user has spoken into, but not strip the thinking of one it keeps', () => {
    const spokenInto: Request = anthropicToolLoopRequest();
    spokenInto.messages.at(-1).content.push({ type: 'text', text: 'Stop; explain the failure instead.' });
    const dropped: Request = copy(spokenInto);
    dropped.messages = [
      dropped.messages[0],
      { role: 'assistant', content: 'Looking.' },
      dropped.messages.at(-1),
    ];
    dropped.messages[2].content = dropped.messages[2].content.slice(1);
    expect(rules('anthropic', spokenInto, dropped)).not.toContain('compacted.tool-loop-thinking-kept');
    const waiting: Request = anthropicToolLoopRequest();
    const stripped: Request = copy(waiting);
    stripped.messages.at(-2).content = stripped.messages.at(-2).content.slice(1);
    expect(rules('anthropic', waiting, stripped)).toContain('compacted.tool-loop-thinking-kept');
  });
});

describe('the note an earlier compaction left in a user message', () => {
  const rules = (format: ProviderRequestFormat, before: Request, after: Request) =>
    compactedRequestViolations(format, before, after).map((violation) => violation.rule);
  const note = (count: number) => `[${count} earlier messages skipped to fit the context window.]`;
  const summary = '[Summary of 6 earlier messages, compaction round 1; the agent ran the tests.]';

  // A request compacted once: its note stands in a user message (in Anthropic joined with tool results), after
  // the task and the first kept round. Compacting it again merges that note into one with the new count, later.
  it('is no user request in Anthropic, even joined with tool results, nor is a summary', () => {
    for (const earlier of [note(2), summary]) {
      const before: Request = anthropicRequest();
      before.messages.splice(3, 2);
      before.messages[2].content.push({ type: 'text', text: earlier });
      before.messages.push(
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }] },
      );
      const after: Request = copy(before);
      after.messages.splice(1, 2);
      after.messages[2].content.push({ type: 'text', text: note(4) });
      expect(rules('anthropic', before, after)).toEqual([]);
      // The user's own newest request is still held to the rule when a note stands after it.
      const asked: Request = copy(before);
      asked.messages[2].content.push({ type: 'text', text: 'Also update the changelog.' });
      const dropped: Request = copy(asked);
      dropped.messages[2].content.pop();
      expect(rules('anthropic', asked, dropped)).toContain('compacted.newest-user-request-kept');
    }
  });

  it('is no user request in Responses or Chat Completions, where it is a user message of its own', () => {
    const responses: Request = openAIResponsesRequest();
    responses.input.splice(5, 3, { role: 'user', content: note(2) });
    responses.input.push(
      { type: 'function_call', call_id: 'call_2', name: 'bash', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'ok' },
    );
    const responsesAfter: Request = copy(responses);
    responsesAfter.input.splice(2, 4);
    responsesAfter.input.push({ role: 'user', content: [{ type: 'input_text', text: note(5) }] });
    expect(rules('openai-responses', responses, responsesAfter)).toEqual([]);

    const chat: Request = openAIChatRequest();
    chat.messages.splice(4, 4, { role: 'user', content: [{ type: 'text', text: note(2) }] });
    chat.messages.push(
      { role: 'assistant', content: null, tool_calls: [chatCall('call_2')] },
      { role: 'tool', tool_call_id: 'call_2', content: 'ok' },
    );
    const chatAfter: Request = copy(chat);
    chatAfter.messages.splice(2, 3);
    chatAfter.messages.push({ role: 'user', content: note(4) });
    expect(rules('openai-chat', chat, chatAfter)).toEqual([]);
    // A user's own request that only looks like a note in part is still a request.
    const asked: Request = copy(chat);
    asked.messages.push({ role: 'user', content: `${note(2)} Now also update the changelog.` });
    expect(rules('openai-chat', asked, chatAfter)).toContain('compacted.newest-user-request-kept');
  });
});

describe('a summary an earlier compaction put in the opening', () => {
  it('may be merged into the next summary, while the task and the rest of the opening stay verbatim', () => {
    const summary = (round: number, count: number) =>
      `[Summary of ${count} earlier messages, compaction round ${round}; the task follows verbatim.]\n\n## Progress`;
    const before: Request = openAIChatRequest();
    before.messages.splice(1, 0, { role: 'user', content: summary(1, 4) });
    const after: Request = copy(before);
    after.messages[1].content = summary(2, 7);
    after.messages.splice(3, 4);
    expect(compactedRequestViolations('openai-chat', before, after)).toEqual([]);
    const withoutTask: Request = copy(after);
    withoutTask.messages.splice(2, 1);
    expect(compactedRequestViolations('openai-chat', before, withoutTask).map(({ rule }) => rule)).toContain(
      'compacted.opening-kept',
    );
  });
});

function chatCall(id: string) {
  return { id, type: 'function', function: { name: 'bash', arguments: '{}' } };
}
