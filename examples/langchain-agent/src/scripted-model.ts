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

interface PlannedCall {
  name: string;
  input: Record<string, string>;
}
/** What the model does at each step: read the files, run the tests after every third. */
const plan: PlannedCall[] = files.flatMap((path, index): PlannedCall[] => [
  { name: 'read_file', input: { path } },
  ...((index + 1) % 3 === 0 ? [{ name: 'run_tests', input: { pattern: 'billing' } }] : []),
]);

/** The final answer, after the plan and one recall. */
export const finalAnswer =
  'The half-cent rounding in src/billing/module-4.ts:77 truncates; it should round up.';

/** A placeholder left by compaction names the handle to pass to `recall`. */
const recallPattern = /recall \\?"([A-Za-z0-9_-]+)\\?"/;

/** Prompt tokens as the stand-in reports them: about four characters a token, plus a few per message. */
function promptTokens(messages: readonly ChatMessage[]): number {
  return Math.ceil(JSON.stringify(messages).length / 4) + 4 * messages.length;
}

/**
 * Starts the stand-in on 127.0.0.1 and a free port. It follows its plan by how many calls it has had, then
 * recalls the first cleared output a placeholder names, then answers. Like a real model, it reports usage.
 */
export async function startScriptedModel(): Promise<ScriptedModel> {
  let calls = 0;
  let recalled = false;
  const server = createServer((request, response) => {
    void answer(request, response);
  });

  function next(messages: readonly ChatMessage[]): PlannedCall | undefined {
    const planned = plan[calls++];
    if (planned !== undefined) return planned;
    const handle = recallPattern.exec(JSON.stringify(messages))?.[1];
    if (recalled || handle === undefined) return undefined;
    recalled = true;
    return { name: 'recall', input: { handle } };
  }

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += String(chunk);
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw) as { model: string; messages: ChatMessage[] };
    const step = calls;
    const call = next(body.messages);
    const usage = { prompt_tokens: promptTokens(body.messages), completion_tokens: 20 };
    const message =
      call === undefined
        ? { role: 'assistant', content: finalAnswer }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${step}`,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.input) },
              },
            ],
          };
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${step}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: call === undefined ? 'stop' : 'tool_calls' }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The client keeps its connections alive: closing them now saves waiting for their timeout.
        server.closeAllConnections();
      }),
  };
}
