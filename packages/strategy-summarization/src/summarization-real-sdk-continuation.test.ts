import { createTokenCounter, type Message, type Provider } from '@compaction/core';
import { toAnthropicRequest } from '@compaction/provider-anthropic';
import { toOpenAIChatMessages } from '@compaction/provider-openai';
import { anthropicMessagesViolations, deepFreeze, openAIChatViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentSession } from './__fixtures__/agent-session.js';
import { sdkHarnesses } from './__fixtures__/sdk-harnesses.js';
import { wellFormedSummary } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';
import { continuationLead } from './summarize-in-conversation.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** The tools the agent of the fixture defines: an Anthropic request holding its calls carries them. */
const agentTools = ['read_file', 'bash', 'edit_file'].map((name) => ({
  name,
  description: `The ${name} tool.`,
  input_schema: { type: 'object' },
}));

type Body = { system?: unknown; messages: unknown[]; tools?: unknown };

/** What the agent sends for the history through the same adapter's converter, and what the API rules find. */
const wire = {
  anthropic: {
    agentRequest: (history: Message[]) => toAnthropicRequest(history),
    violations: (body: Body) => anthropicMessagesViolations(body),
  },
  openai: {
    agentRequest: (history: Message[]) => ({ messages: toOpenAIChatMessages(history) }),
    violations: (body: Body) => openAIChatViolations(body),
  },
};

/** The request's content as a sequence of blocks with their role, a string content read as one text block. */
function blocksOf(messages: readonly unknown[]): Array<{ role: string; block: unknown }> {
  return messages.flatMap((value) => {
    const { content, ...rest } = value as { role: string; content: unknown };
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : (content as unknown[]);
    return (blocks ?? [null]).map((block) => ({ role: rest.role, block: { ...rest, block } }));
  });
}

/** The agent's session the tests compact, frozen so that a change to it would throw. */
const agentHistory = () => deepFreeze(agentSession(12, 'Now add a test for negative totals.'));

/** One compaction of `history` asking the summarizer in the conversation, at a limit that summarizes. */
function compactInConversation(provider: Provider, history: readonly Message[]) {
  return createSummarization({ provider, summarizerRequest: 'continuation' }).compact({
    messages: history,
    counter: createTokenCounter(),
    budget: { limit: 1500, target: 1500 },
    trigger: 'auto',
    round: 1,
  });
}

describe.each(sdkHarnesses)("summarizerRequest 'continuation' through the real $name SDK", (harness) => {
  it("sends the agent's own request for the history, then the summary request as one more user message", async () => {
    server.handle(harness.path, () => harness.success(wellFormedSummary()));
    const history = agentHistory();
    const provider = harness.createProvider(server, { maxRetries: 0, timeout: 2000, tools: agentTools });
    const output = await compactInConversation(provider, history);

    expect(output.details).toMatchObject({ summarizerRequest: 'continuation', summarizerCalls: 1 });
    expect(output.details).not.toHaveProperty('fallback');
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]!.body as Body;
    // Block for block what the agent sends for this history, system prompt included (the cache prefix), then
    // one text block: Anthropic's converter joins it to the newest user turn, OpenAI's sends one more message.
    const agent = wire[harness.name].agentRequest(history) as Body;
    expect(body.system).toEqual(agent.system);
    const sent = blocksOf(body.messages);
    const agentBlocks = blocksOf(agent.messages);
    expect(sent.slice(0, agentBlocks.length)).toEqual(agentBlocks);
    expect(sent).toHaveLength(agentBlocks.length + 1);
    const request = sent.at(-1)!;
    expect(request.role).toBe('user');
    expect(JSON.stringify(request.block)).toContain(continuationLead);
    // Valid for the API as sent: the Anthropic adapter adds the agent's tools, which the cache prefix opens with.
    expect(wire[harness.name].violations(body)).toEqual([]);
    if (harness.name === 'anthropic') {
      expect(body.tools).toEqual(agentTools);
      expect((body as { tool_choice?: unknown }).tool_choice).toEqual({ type: 'none' });
    }
  });
});

describe('the Anthropic adapter without the agent tools', () => {
  it('sends the span as a transcript, the only request made', async () => {
    const harness = sdkHarnesses.find((candidate) => candidate.name === 'anthropic')!;
    server.handle(harness.path, () => harness.success(wellFormedSummary()));
    const provider = harness.createProvider(server, { maxRetries: 0, timeout: 2000 });
    const output = await compactInConversation(provider, agentHistory());

    // The conversation holds tool calls, which the API refuses without tools: the adapter sent nothing for it.
    expect(output.details).toMatchObject({ summarizerRequest: 'transcript', summarizerCalls: 1 });
    expect(output.details).not.toHaveProperty('fallback');
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]!.body as Body;
    expect(harness.requestIssues(body)).toEqual([]);
    expect(JSON.stringify(body)).not.toContain(continuationLead);
  });
});
