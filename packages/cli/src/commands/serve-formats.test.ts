import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactedRequestViolations } from '@compaction/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicAgentRequest,
  openAIChatAgentRequest,
} from '../../../server/src/serve/__fixtures__/agent-requests.js';
import { serveClient } from '../../../server/src/serve/__fixtures__/serve-client.js';
import { type LooseJson, runBinary, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// End to end through the built binary: provider requests compacted over HTTP, answered in their own format
// with what `compaction compact --json` reports for the same file; sessions in a provider format; bodies
// nested too deeply.

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(['--store', 'memory']);
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/**
 * What `compaction compact --json` reports for a conversation, the fields only a file or a `--json` document
 * has (its output, its format's version) left out.
 */
async function cliReport(conversation: unknown): Promise<LooseJson> {
  const path = join(temporaryDirectory(), 'request.json');
  writeFileSync(path, JSON.stringify(conversation, null, 2));
  const { code, stdout, stderr } = await runBinary(['compact', path, '--json', '-o', `${path}.out`]);
  expect(code, stderr).toBe(0);
  const { output: _output, durationMs: _duration, version: _version, ...report } = JSON.parse(stdout);
  return report;
}

async function compact(body: unknown) {
  const response = await serveClient(server.url)('/v1/compact', { method: 'POST', json: body });
  return { status: response.status, body: (await response.json()) as LooseJson };
}

describe('compaction serve: provider formats', () => {
  it.each([
    ['anthropic', anthropicAgentRequest],
    ['openai-chat', openAIChatAgentRequest],
  ] as const)('compacts an agent’s %s request and answers it in its own format', async (format, request) => {
    const { status, body } = await compact({ conversation: request });
    expect(status, JSON.stringify(body)).toBe(200);
    const { durationMs, ...report } = body.report;
    expect(durationMs).toEqual(expect.any(Number));
    expect(report).toEqual(await cliReport(request));
    expect(report).toMatchObject({ format, outputFormat: format, compacted: true, targetReached: true });
    // Valid for the provider, with its system prompt, settings, newest request and thinking kept.
    expect(compactedRequestViolations(format, request, body.conversation)).toEqual([]);
    const { messages: _compacted, ...settings } = body.conversation;
    const { messages: _original, ...originalSettings } = request;
    expect(settings).toEqual(originalSettings);
    expect(report.after.tokens).toBeLessThan(report.before.tokens);
  });

  it('reads a format the detection would not pick when "format" says so, and refuses what it cannot read', async () => {
    // Text parts only are valid core: detected as core, read as Chat when asked.
    const parts = [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }];
    const asChat = await compact({
      conversation: parts,
      format: 'openai-chat',
      config: { budget: { target: 1000 } },
    });
    expect(asChat.body.report).toMatchObject({
      format: 'openai-chat',
      compacted: false,
      skipped: 'under-target',
    });
    expect(asChat.body.conversation).toEqual(parts);

    const conflicting = {
      system: 'Be brief.',
      messages: [{ role: 'tool', tool_call_id: 'a', content: 'x' }],
    };
    const cases: Array<[unknown, RegExp]> = [
      [
        { conversation: conflicting },
        /^conversation: cannot tell the format: .*\(openai-chat\) and .*\(anthropic\); set "format" to choose$/,
      ],
      [
        { conversation: parts, format: 'claude-code' },
        /^format must be one of core, anthropic, openai-chat, openai-responses, got "claude-code"$/,
      ],
      [anthropicAgentRequest, /^unknown fields "model", .*the conversation goes in "conversation"/],
      [{}, /^conversation is required/],
      [{ conversation: { messages: 'none' }, format: 'anthropic' }, /^conversation: .*Anthropic/],
    ];
    for (const [body, message] of cases) {
      const answer = await compact(body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
  });

  it('keeps a session in its format: appends in it, answers in it, and names results of earlier calls', async () => {
    const call = serveClient(server.url);
    const [task, firstCall, firstResult] = anthropicAgentRequest.messages;
    const { messages: _messages, ...envelope } = anthropicAgentRequest;
    const created = await call('/v1/sessions', {
      method: 'POST',
      json: { conversation: { ...envelope, messages: [task] } },
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as LooseJson;
    expect(session).toMatchObject({
      format: 'anthropic',
      messages: 2,
      conversation: { ...envelope, messages: [task] },
    });

    // The agent appends the model's tool call, then, once the tool ran, its result on its own.
    for (const step of [[firstCall], [firstResult]]) {
      const appended = await call(`/v1/sessions/${session.id}/messages`, {
        method: 'POST',
        json: { messages: step },
      });
      expect(appended.status).toBe(200);
    }
    const state = (await (await call(`/v1/sessions/${session.id}`)).json()) as LooseJson;
    expect(state.conversation).toEqual({ ...envelope, messages: [task, firstCall, firstResult] });
    expect(compactedRequestViolations('anthropic', state.conversation, state.conversation)).toEqual([]);

    const wrong = await call(`/v1/sessions/${session.id}/messages`, {
      method: 'POST',
      json: { messages: { role: 'user', content: 'not a list' } },
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as LooseJson).error.message).toBe(
      "messages must be a list of messages in the session's format (anthropic)",
    );
  });

  it('refuses a body nested 100,000 levels deep with one clear 400, and keeps answering', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const toolInput = `{"conversation": [{"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "a", "toolName": "t", "input": ${deep}}]}]}`;
    const call = serveClient(server.url);
    const refused = await call('/v1/compact', { method: 'POST', body: toolInput });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: {
        code: 'too-deeply-nested',
        message: 'conversation[0].content[0].input[0][0][0]… is nested more than 1,000 levels deep',
      },
    });

    // An OpenAI tool call's arguments are JSON text: they are measured once the converter parsed them.
    const deepArguments = {
      conversation: [
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: deep } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'done' },
      ],
    };
    const inText = await compact(deepArguments);
    expect(inText.status).toBe(400);
    expect(inText.body.error.message).toMatch(
      /^conversation: messages\[1\]\.content\[0\]\.input.* is nested more than 1,000 levels deep$/,
    );
    // A session's append is read the same way.
    const session = (await (await call('/v1/sessions', { method: 'POST', json: {} })).json()) as LooseJson;
    const deepAppend = await call(`/v1/sessions/${session.id}/messages`, {
      method: 'POST',
      body: `{"messages": [{"role": "user", "content": ${deep}}]}`,
    });
    expect(deepAppend.status).toBe(400);
    expect(((await deepAppend.json()) as LooseJson).error).toEqual({
      code: 'too-deeply-nested',
      message: 'messages[0].content[0][0][0][0][0]… is nested more than 1,000 levels deep',
    });
    expect((await call('/v1/health')).status).toBe(200);
  });
});
