import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type ArchivedItem, type CompactionRecord, createCompactor } from '@compaction/core';
import {
  createInstalledStrategyRegistry,
  listenCompactionProxy,
  parseUpstreams,
  proxyStrategyDefaults,
  resolveSettings,
} from '@compaction/server';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { compactedRequestViolations, generateCodingHistory } from '@compaction/testing';
import { startTestServer } from '@compaction/testing/loopback-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itOnFullRun } from '../__fixtures__/full-run.js';
import { binary, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

// `compaction mcp` through the MCP SDK's own client: the built binary spawned over standard input and output,
// as agents start it, and over Streamable HTTP on loopback. The store holds what a real Compactor run
// archived (generated coding history, masked, archiving on). The Node 22 compatibility run runs these too:
// they are processes, pipes, HTTP and SQLite; not the flag checks (plain code, run on Node 20).

const directory = temporaryDirectory();
const store = join(directory, 'archive.sqlite');
let records: CompactionRecord[];
const children: ChildProcess[] = [];

beforeAll(async () => {
  const writer = createSqliteCompactionStore({ path: store });
  const compactor = createCompactor({
    strategy: createToolResultTruncation({ mode: 'mask' }),
    budget: { contextWindow: 200_000, target: 0.2 },
    store: writer,
    archive: true,
  });
  await compactor.compact(generateCodingHistory({ messages: 100, seed: 5 }), { sessionId: 'task-1' });
  records = await writer.list('task-1');
  await writer.close();
});

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

function archived(): ArchivedItem[] {
  return records.flatMap((record) => record.archived ?? []);
}

async function call(client: Client, name: string, input: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: input })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { text, isError: result.isError === true };
}

/** The binary over standard input and output, with `args` after `mcp`. */
async function stdioClient(args: string[], cwd = directory): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binary, 'mcp', ...args],
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('compaction mcp', () => {
  it('answers recall, search and compaction_status over standard input and output', async () => {
    const client = await stdioClient(['--store', store]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'compact',
      'compaction_status',
      'recall',
      'search',
    ]);
    const items = archived();
    expect(items.length).toBeGreaterThan(10);
    for (const item of items.slice(0, 10)) {
      expect(await call(client, 'recall', { handle: item.handle })).toEqual({
        text: item.text,
        isError: false,
      });
    }
    const item = items[0]!;
    const lines = item.text.split('\n');
    expect((await call(client, 'recall', { handle: item.handle, fromLine: 2, toLine: 2 })).text).toBe(
      `[recall "${item.handle}" (${item.label}): lines 2-2 of ${lines.length}]\n${lines[1]}`,
    );
    const pattern = await call(client, 'recall', { handle: item.handle, pattern: lines[0]! });
    expect(pattern.text).toContain(`1: ${lines[0]}`);
    const found = await call(client, 'search', { query: `"${lines[0]}"`, limit: 3 });
    expect(found.isError).toBe(false);
    expect(found.text).toMatch(/^1\. recall "[^"]+" \(.+; session "task-1", round 1, archived /m);
    const status = await call(client, 'compaction_status', { session: 'task-1' });
    const { event } = records[0]!;
    expect(status.text).toContain(
      `Round 1 at ${event.startedAt} (${event.trigger}, ${event.strategy}): ${event.tokensBefore} -> ` +
        `${event.tokensAfter} tokens, ${event.messagesBefore} -> ${event.messagesAfter} messages, ${items.length} archived`,
    );
    expect(await call(client, 'recall', { handle: 'nothing00' })).toMatchObject({ isError: true });
    expect(await call(client, 'compaction_status', { session: 'nobody' })).toEqual({
      text: 'compaction_status: no session "nobody" in the compaction store (it has "task-1")',
      isError: true,
    });
    await client.close();
  });

  it("compacts through the proxy of --proxy: the conversation's next request, although under its target", async () => {
    const upstream = await startTestServer();
    upstream.handle('/v1/messages', () => ({
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-5-5',
        content: [{ type: 'text', text: 'Done.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 5 },
      },
    }));
    const registry = await createInstalledStrategyRegistry();
    const settings = resolveSettings(
      registry,
      { 'context-window': '200k' },
      directory,
      proxyStrategyDefaults(registry),
    );
    const lines: string[] = [];
    const { server, url } = await listenCompactionProxy(
      { settings, registry, upstreams: parseUpstreams([upstream.url]), log: (line) => lines.push(line) },
      { port: 0 },
    );
    const client = await stdioClient(['--store', store, '--proxy', url]);
    try {
      const request = {
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        tools: [{ name: 'read', description: 'Reads a file.', input_schema: { type: 'object' } }],
        messages: [
          { role: 'user', content: 'Read the modules and fix the rounding bug.' },
          ...Array.from({ length: 6 }, (_, turn) => [
            {
              role: 'assistant',
              content: [
                { type: 'tool_use', id: `toolu_${turn}`, name: 'read', input: { path: `m${turn}.ts` } },
              ],
            },
            {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: `toolu_${turn}`,
                  content: `const v${turn} = 1;\n`.repeat(120),
                },
              ],
            },
          ]).flat(),
        ],
      };
      const body = JSON.stringify(request);
      const send = () =>
        fetch(`${url}/v1/messages`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': 'client-key',
            'anthropic-version': '2023-06-01',
            'x-compaction-conversation': 'agent-1',
          },
          body,
        });
      expect((await send()).status).toBe(200);
      expect(upstream.requests[0]!.rawBody).toBe(body);
      // As compaction_status lists the proxy's conversation: its store session.
      const asked = await call(client, 'compact', {
        conversation: 'proxy:named:agent-1',
        instructions: 'Keep the paths.',
      });
      expect(asked).toMatchObject({ isError: false });
      expect((await send()).status).toBe(200);
      const forwarded = upstream.requests[1]!;
      expect(forwarded.rawBody.length).toBeLessThan(body.length);
      expect(compactedRequestViolations('anthropic', request, forwarded.body)).toEqual([]);
      expect(lines).toEqual([expect.stringMatching(/conversation agent-1: .*trigger manual/)]);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await upstream.close();
    }
  });

  it('serves Streamable HTTP on loopback with the bearer token, 401 without, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        binary,
        'mcp',
        '--http',
        '--port',
        '0',
        '--token',
        'secret-1',
        '--store',
        store,
        '--session',
        'task-1',
      ],
      { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp) \(.*bearer token required\)/.exec(
          stderr,
        );
        if (match !== null) resolve(match[1]!);
      });
      child.on('exit', () => reject(new Error(`exited: ${stderr}`)));
    });
    const refused = new Client({ name: 'test', version: '1.0.0' });
    await expect(refused.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toMatchObject({
      code: 401,
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: 'Bearer secret-1' } },
      }),
    );
    const item = archived().at(-1)!;
    expect(await call(client, 'recall', { handle: item.handle })).toEqual({
      text: item.text,
      isError: false,
    });
    expect((await call(client, 'compaction_status', {})).text).toMatch(
      /^Session "task-1": 1 compaction round/,
    );
    await client.close();
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('opens the proxy’s default store, creating it when it is not there yet', async () => {
    const folder = temporaryDirectory();
    const client = await stdioClient([], folder);
    expect(await call(client, 'compaction_status', {})).toEqual({
      text: 'The compaction store has no sessions yet: nothing was compacted.',
      isError: false,
    });
    await client.close();
    expect(existsSync(join(folder, '.compaction', 'sessions.sqlite'))).toBe(true);
  });

  itOnFullRun('refuses flags it cannot use, with one line each', async () => {
    const cases: Array<[string[], string]> = [
      [['--port', '80'], 'mcp: --port needs --http'],
      [['--store', 'memory'], 'mcp: --store must be a SQLite file'],
      [['--store', join(directory, 'missing.sqlite')], 'mcp: no store at'],
      [['--http', '--host', '0.0.0.0', '--store', store], 'beyond loopback: give a token'],
      [['--http', '--port', 'x', '--store', store], '--port must be 0 to 65535'],
    ];
    for (const [args, message] of cases) {
      const run = await runCommand(['mcp', ...args], { cwd: directory });
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr).toContain(message);
    }
    const help = await runCommand(['mcp', '--help']);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: compaction mcp') });
  });
});
