import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { files } from './workspace.js';

/** One answer of the scripted agent: the tool it calls, or none for the final answer. */
export interface PlannedStep {
  tool: 'read_file' | 'run_tests';
  path?: string;
}

/** The scripted agent's plan: what it does at each answer. The answer after the last step is the fix. */
const plan: PlannedStep[] = [
  { tool: 'run_tests' },
  ...files.map((path) => ({ tool: 'read_file' as const, path })),
  { tool: 'run_tests' },
  // A second pass over the code the failure points at.
  ...files.slice(0, 6).map((path) => ({ tool: 'read_file' as const, path })),
  { tool: 'run_tests' },
];

/** The scripted agent's last answer. */
export const finalAnswer =
  'Found it: parseDate adds a day before checking for February 29. Check first, then add.';

/** What the scripted agent says before calling a tool. */
export const stepText = (step: PlannedStep) =>
  step.tool === 'run_tests' ? 'Running the tests.' : `Reading ${step.path}.`;

/** How one API words the scripted model's answers and its refusal. */
export interface ScriptedFormat {
  /** The parts of a request body that count as input. */
  input(body: Record<string, unknown>): unknown;
  /** The 400 body that refuses a request of `counted` tokens as too long. */
  refusal(counted: number, contextWindow: number): unknown;
  /** The body of answer number `answer` (from 1), calling the tool of `step`, or the final answer without one. */
  reply(
    answer: number,
    step: PlannedStep | undefined,
    inputTokens: number,
    body: Record<string, unknown>,
  ): unknown;
}

/** A local stand-in for an API, with the URL it listens on. */
export interface ScriptedModel {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a scripted model on 127.0.0.1. It answers every request in the format given, with a stand-in
 * tokenizer for the usage it reports, and refuses the first attempt of answer `overflowAt` as too long, as the
 * APIs do when a request exceeds the context window.
 */
export async function startScriptedModel(
  format: ScriptedFormat,
  settings: { contextWindow: number; overflowAt: number },
): Promise<ScriptedModel> {
  let answer = 0;
  let refused = false;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      // A stand-in tokenizer: about four characters a token.
      const inputTokens = Math.ceil(JSON.stringify(format.input(body)).length / 4);
      if (!refused) answer++;
      const overflow = answer === settings.overflowAt && !refused;
      refused = overflow;
      const payload = overflow
        ? format.refusal(Math.max(settings.contextWindow + 1, inputTokens), settings.contextWindow)
        : format.reply(answer, plan[answer - 1], inputTokens, body);
      response.writeHead(overflow ? 400 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
