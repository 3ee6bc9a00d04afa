import { fileURLToPath } from 'node:url';
import { startApplication } from './application.js';
import { startScriptedProvider } from './scripted-provider.js';

/** What one request of the agent sent and what the provider received of it. */
export interface ExchangeCount {
  sent: number;
  received: number;
}

/** What the example saw: each request's message counts, the application's own route, the proxy's status. */
export interface ExampleResult {
  exchanges: ExchangeCount[];
  health: { status: number; body: unknown };
  status: { requests: number; compactions: number };
  lines: string[];
}

const task = 'Find why the cache test fails and fix it.';

/** A tool result of about 600 tokens: a file the agent read. */
const fileText = (turn: number) =>
  `// src/module-${turn}.ts\n${'export const value = computeSomething();\n'.repeat(60)}`;

/**
 * Starts a scripted provider and the application, sends an agent's conversation through the proxy the
 * application mounts under `/llm` (one more tool call and result each request, 16 requests), then asks the
 * application's own route and the proxy's status.
 */
export async function runExample(): Promise<ExampleResult> {
  const provider = await startScriptedProvider();
  const application = await startApplication(provider.url);
  try {
    const messages: unknown[] = [{ role: 'user', content: task }];
    const exchanges: ExchangeCount[] = [];
    for (let turn = 1; turn <= 16; turn++) {
      const id = `toolu_${turn}`;
      messages.push(
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id, name: 'read_file', input: { path: `src/module-${turn}.ts` } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: fileText(turn) }] },
      );
      const answer = await fetch(`${application.url}/llm/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': 'example-key',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages }),
      });
      if (answer.status !== 200)
        throw new Error(`request ${turn} answered ${answer.status}: ${await answer.text()}`);
      const forwarded = provider.requests.at(-1);
      if (forwarded === undefined) throw new Error(`request ${turn} did not reach the provider`);
      const received = (forwarded.body as { messages: unknown[] }).messages.length;
      exchanges.push({ sent: messages.length, received });
    }
    const health = await fetch(`${application.url}/health`);
    const status = (await (
      await fetch(`${application.url}/llm/compaction/status`)
    ).json()) as ExampleResult['status'];
    return {
      exchanges,
      health: { status: health.status, body: await health.json() },
      status: { requests: status.requests, compactions: status.compactions },
      lines: application.lines,
    };
  } finally {
    await application.close();
    await provider.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runExample();
  for (const [index, { sent, received }] of result.exchanges.entries()) {
    console.log(`request ${index + 1}: ${sent} messages sent, ${received} reached the provider`);
  }
  for (const line of result.lines) console.log(line);
  console.log(`GET /health: ${result.health.status} ${JSON.stringify(result.health.body)}`);
  console.log(
    `GET /llm/compaction/status: ${result.status.requests} requests, ${result.status.compactions} compactions`,
  );
}
