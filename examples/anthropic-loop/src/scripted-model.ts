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

/** A local stand-in for the Messages API: a scripted model that reads, tests, and refuses one request. */
export interface ScriptedModel {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the scripted model on 127.0.0.1. It answers `POST /v1/messages` in the API's own format, reports
 * usage (most of it as prompt-cache reads, as a cached agent loop would see), and refuses the first attempt
 * of answer `overflowAt` as too long, as the API does when a request exceeds the context window.
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
      const inputTokens = Math.ceil(JSON.stringify([body.system, body.messages, body.tools]).length / 4);
      if (!refused) answer++;
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (answer === settings.overflowAt && !refused) {
        refused = true;
        const counted = Math.max(settings.contextWindow + 1, inputTokens);
        send(400, {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `prompt is too long: ${counted} tokens > ${settings.contextWindow} maximum`,
          },
        });
        return;
      }
      refused = false;
      const step = plan[answer - 1];
      const content =
        step === undefined
          ? [
              {
                type: 'text',
                text: 'Found it: parseDate adds a day before checking for February 29. Check first, then add.',
              },
            ]
          : [
              {
                type: 'text',
                text: step.tool === 'run_tests' ? 'Running the tests.' : `Reading ${step.path}.`,
              },
              {
                type: 'tool_use',
                id: `toolu_${String(answer).padStart(2, '0')}`,
                name: step.tool,
                input: step.path === undefined ? {} : { path: step.path },
              },
            ];
      const cacheRead = Math.floor(inputTokens * 0.8);
      send(200, {
        id: `msg_${answer}`,
        type: 'message',
        role: 'assistant',
        model: String(body.model),
        content,
        stop_reason: step === undefined ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens - cacheRead,
          cache_read_input_tokens: cacheRead,
          output_tokens: 30,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
