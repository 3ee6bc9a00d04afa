import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { files } from './workspace.js';

/** The local stand-in for the OpenAI Responses API. */
export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  close(): Promise<void>;
}

/** What the model does at each call: read the files, run the tests after the third, then answer. */
interface PlannedCall {
  name: string;
  input: Record<string, string>;
}
const investigation: PlannedCall[] = files.flatMap((path, index): PlannedCall[] => [
  { name: 'read_file', input: { path } },
  ...(index === 2 ? [{ name: 'run_tests', input: { pattern: 'billing' } }] : []),
]);

/** The answers of the two runs: after the investigation, and to the follow-up question. */
export const firstAnswer =
  'The half-cent rounding in src/billing/module-4.ts:77 truncates; it should round up.';
export const secondAnswer = 'Change Math.floor to Math.round at src/billing/module-4.ts:77.';

/**
 * Starts the stand-in on 127.0.0.1 and a free port. It answers by how many calls it has had, so it follows
 * its plan however much of the history compaction removed, and it reports input tokens (about four
 * characters a token) as the real API does: the compactor anchors its count on them.
 */
export async function startScriptedModel(): Promise<ScriptedModel> {
  let calls = 0;
  const server = createServer((request, response) => {
    void answer(request, response);
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += String(chunk);
    if (request.method !== 'POST' || request.url !== '/v1/responses') {
      response.writeHead(404).end();
      return;
    }
    const call = calls++;
    const planned = investigation[call];
    const text = call === investigation.length ? firstAnswer : secondAnswer;
    const output =
      planned === undefined
        ? [
            {
              type: 'message',
              id: `msg_${call}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text, annotations: [] }],
            },
          ]
        : [
            {
              type: 'function_call',
              id: `fc_${call}`,
              call_id: `call_${call}`,
              name: planned.name,
              arguments: JSON.stringify(planned.input),
              status: 'completed',
            },
          ];
    const inputTokens = Math.ceil(raw.length / 4);
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `resp_${call}`,
        object: 'response',
        created_at: 1_700_000_000,
        model: 'scripted-model',
        status: 'completed',
        output,
        usage: {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 20,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: inputTokens + 20,
        },
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
