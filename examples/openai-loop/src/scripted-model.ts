import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { files } from './workspace.js';

/** The scripted agent's plan: what it does at each answer. The answer after the last step is the fix. */
const plan: Array<{ tool: 'read_file' | 'run_tests'; path?: string }> = [
  { tool: 'run_tests' },
  ...files.map((path) => ({ tool: 'read_file' as const, path })),
  { tool: 'run_tests' },
  // A second pass over the code the failure points at.
  ...files.slice(0, 6).map((path) => ({ tool: 'read_file' as const, path })),
  { tool: 'run_tests' },
];

/** A local stand-in for the Chat Completions API: a scripted model that reads, tests, and refuses once. */
export interface ScriptedModel {
  /** The base URL to give the SDK (`http://127.0.0.1:<port>/v1`). */
  baseURL: string;
  close(): Promise<void>;
}

/**
 * Starts the scripted model on 127.0.0.1. It answers `POST /v1/chat/completions` in the API's own format,
 * reports usage (cached tokens included in `prompt_tokens`, as the API does), and refuses the first attempt
 * of answer `overflowAt` with `context_length_exceeded`, as the API does when a request exceeds the window.
 */
export async function startScriptedModel(settings: {
  contextWindow: number;
  overflowAt: number;
}): Promise<ScriptedModel> {
  let answer = 0;
  let refused = false;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      // A stand-in tokenizer: about four characters a token.
      const promptTokens = Math.ceil(JSON.stringify([body.messages, body.tools]).length / 4);
      if (!refused) answer++;
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (answer === settings.overflowAt && !refused) {
        refused = true;
        const counted = Math.max(settings.contextWindow + 1, promptTokens);
        send(400, {
          error: {
            message: `This model's maximum context length is ${settings.contextWindow} tokens. However, your messages resulted in ${counted} tokens. Please reduce the length of the messages.`,
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        });
        return;
      }
      refused = false;
      const step = plan[answer - 1];
      send(200, {
        id: `chatcmpl-${answer}`,
        object: 'chat.completion',
        created: 1_800_000_000,
        model: String(body.model),
        choices: [
          {
            index: 0,
            finish_reason: step === undefined ? 'stop' : 'tool_calls',
            logprobs: null,
            message: {
              role: 'assistant',
              content:
                step === undefined
                  ? 'Found it: parseDate adds a day before checking for February 29. Check first, then add.'
                  : step.tool === 'run_tests'
                    ? 'Running the tests.'
                    : `Reading ${step.path}.`,
              refusal: null,
              annotations: [],
              ...(step === undefined
                ? {}
                : {
                    tool_calls: [
                      {
                        id: `call_${String(answer).padStart(2, '0')}`,
                        type: 'function',
                        function: {
                          name: step.tool,
                          arguments: JSON.stringify(step.path === undefined ? {} : { path: step.path }),
                        },
                      },
                    ],
                  }),
            },
          },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: 30,
          total_tokens: promptTokens + 30,
          prompt_tokens_details: { cached_tokens: Math.floor(promptTokens * 0.8) },
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
