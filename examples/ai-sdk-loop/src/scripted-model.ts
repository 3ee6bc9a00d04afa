import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { files } from './workspace.js';

/** A Chat Completions message as the server receives it. */
interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ function: { name: string; arguments: string } }>;
}

/** The local stand-in for an OpenAI-compatible model. */
export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  close(): Promise<void>;
}

/** What the model does at each step: read the files, run the tests after every third, then answer. */
interface PlannedCall {
  name: string;
  input: Record<string, string>;
}
const plan: PlannedCall[] = files.flatMap((path, index): PlannedCall[] => [
  { name: 'read_file', input: { path } },
  ...((index + 1) % 3 === 0 ? [{ name: 'run_tests', input: { pattern: 'billing' } }] : []),
]);

/** The final answer, after the plan. */
export const finalAnswer =
  'The half-cent rounding in src/billing/module-4.ts:77 truncates; it should round up.';

/**
 * Prompt tokens as the stand-in reports them: about four characters a token, plus a few per message. Like a
 * real model, it reports usage, which the compactor uses to anchor its count.
 */
function promptTokens(messages: readonly ChatMessage[]): number {
  let characters = 0;
  for (const message of messages) {
    characters +=
      typeof message.content === 'string'
        ? message.content.length
        : JSON.stringify(message.content ?? '').length;
    for (const call of message.tool_calls ?? [])
      characters += call.function.name.length + call.function.arguments.length;
  }
  return Math.ceil(characters / 4) + 4 * messages.length;
}

/**
 * Starts the stand-in on 127.0.0.1 and a free port. It answers by how many calls it has had, so it follows
 * its plan however much of the history compaction removed.
 */
export async function startScriptedModel(): Promise<ScriptedModel> {
  let calls = 0;
  const server = createServer((request, response) => {
    void answer(request, response);
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += String(chunk);
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw) as { model: string; messages: ChatMessage[] };
    const step = calls++;
    const next = plan[step];
    const usage = { prompt_tokens: promptTokens(body.messages), completion_tokens: 20 };
    const message =
      next === undefined
        ? { role: 'assistant', content: finalAnswer }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${step}`,
                type: 'function',
                function: { name: next.name, arguments: JSON.stringify(next.input) },
              },
            ],
          };
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${step}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: next === undefined ? 'stop' : 'tool_calls' }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** The number of model calls the plan takes, the final answer included. */
export const plannedSteps = plan.length + 1;
