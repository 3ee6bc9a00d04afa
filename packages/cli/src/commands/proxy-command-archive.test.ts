import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { ArchivedItem } from '@compaction/core';
import { toAnthropicRequest } from '@compaction/provider-anthropic';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { recallHandlesIn } from '@compaction/strategy-kit';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import {
  codingSources,
  loadTranscripts,
  missingTranscriptsMessage,
  type Transcript,
  transcriptsDirectory,
} from '@compaction/testing/transcripts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithToolCalls, runAgent } from '../../../server/src/proxy/__fixtures__/coding-agent.js';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { binary, runBinary, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';
import { type RunningServer, startServer } from '../__fixtures__/start-server.js';

// `compaction proxy` as a process archives what its compactions remove in its store, under the handles its
// placeholders name: the SWE-bench coding runs of the shared transcripts, replayed through it, and every handle
// it sent upstream recalled by `compaction recall --session <the conversation's session>` with the exact text.

const directory = transcriptsDirectory();
/** The SWE-bench runs: mini-swe-agent's and SWE-agent's. */
const transcripts: Transcript[] =
  directory === undefined
    ? []
    : loadTranscripts({ directory, sources: codingSources.filter((source) => source.includes('swe-agent')) });

const tools: Anthropic.Tool[] = [
  {
    name: 'bash',
    description: 'Runs a bash command in the repository.',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

let upstream: TestServer;
beforeAll(async () => {
  upstream = await startTestServer();
});
afterAll(() => upstream.close());

/** The text of each tool result the request holds, as `compaction recall` prints it back. */
function toolResultTexts(messages: readonly Anthropic.MessageParam[]): Set<string> {
  const texts = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      const content = block.content ?? '';
      texts.add(
        typeof content === 'string'
          ? content
          : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'),
      );
    }
  }
  return texts;
}

/**
 * Replays a transcript turn by turn through the proxy (the upstream answers each turn with the recorded one);
 * returns the handles the forwarded requests named, the session the proxy's lines named, and the tool results.
 */
async function replay(proxy: RunningServer, transcript: Transcript) {
  const request = toAnthropicRequest(transcript.messages) as {
    system?: Anthropic.MessageCreateParams['system'];
    messages: Anthropic.MessageParam[];
  };
  const turns = request.messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));
  upstream.reset();
  upstream.handle('/v1/messages', (received) => {
    const answered = upstream.requests.length - 1;
    return {
      body: {
        id: `msg_${answered}`,
        type: 'message',
        role: 'assistant',
        model: (received.body as { model: string }).model,
        content: request.messages[turns[answered]!]!.content,
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 100 },
      },
    };
  });
  const linesBefore = proxy.stderr().length;
  const client = new Anthropic({ apiKey: 'replay-key', baseURL: proxy.url, maxRetries: 0 });
  for (const turn of turns) {
    await client.messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 4096,
      ...(request.system === undefined ? {} : { system: request.system }),
      tools,
      messages: request.messages.slice(0, turn),
    });
  }
  const forwarded = upstream.requests.map((received) => received.rawBody as string);
  const handles = [...new Set(forwarded.flatMap((body) => recallHandlesIn(body)))];
  const sessions = [
    ...proxy
      .stderr()
      .slice(linesBefore)
      .matchAll(/archived in session (\S+)\)$/gm),
  ].map((match) => match[1]!);
  return { handles, sessions: [...new Set(sessions)], originals: toolResultTexts(request.messages) };
}

/** What {@link replay} found, and what `compaction recall` printed for each handle. */
interface ArchivedRun {
  name: string;
  session: string;
  handles: string[];
  originals: Set<string>;
  /** By handle: the label and the text `compaction recall` printed. */
  recalled: Map<string, { label: string; text: string }>;
}

/** Replays each SWE-bench run through a `compaction proxy` process of its own, on one store. */
async function replayThroughProxies(folder: string): Promise<Omit<ArchivedRun, 'recalled'>[]> {
  const runs: Omit<ArchivedRun, 'recalled'>[] = [];
  for (const transcript of transcripts) {
    // A window that each run outgrows two or three times over (about 4 characters a token): a few
    // compactions each, as each recall opens the store anew (about a second).
    const window = Math.max(6000, Math.round(JSON.stringify(transcript.messages).length / 9000) * 1000);
    const args = ['--upstream', `anthropic=${upstream.url}`, '--context-window', String(window)];
    const proxy = await startServer(args, {}, folder, 'proxy');
    try {
      const { handles, sessions, originals } = await replay(proxy, transcript);
      const status = (await (await fetch(`${proxy.url}/compaction/status`)).json()) as {
        archive: { conversations: { sessionId: string }[] };
        storeErrors: number;
      };
      expect(status.storeErrors).toBe(0);
      expect(status.archive.conversations.map((conversation) => conversation.sessionId)).toEqual(sessions);
      expect(sessions, transcript.name).toHaveLength(1);
      expect(handles.length, transcript.name).toBeGreaterThan(0);
      runs.push({ name: transcript.name, session: sessions[0]!, handles, originals });
    } finally {
      expect(await proxy.stop()).toBe(0);
    }
  }
  return runs;
}

// The Node 22 compatibility run does not register the replays of whole coding runs (several seconds): the
// Node 20 run has made them, and the archive's own tests run on the server's.
const describeReplays = transcripts.length === 0 ? describe.skip : describeOnFullRun;

describeReplays(`compaction proxy: archive (${directory ?? missingTranscriptsMessage})`, () => {
  const folder = temporaryDirectory();
  const store = join(folder, '.compaction', 'sessions.sqlite');
  const runs: ArchivedRun[] = [];
  beforeAll(async () => {
    for (const run of await replayThroughProxies(folder)) runs.push({ ...run, recalled: new Map() });
  }, 120_000);

  it('archives what the compactions of the SWE-bench runs remove, each handle recalled with its text', async () => {
    let toolResults = 0;
    for (const run of runs) {
      const labels = new Map(
        (await archivedItems(store, run.session)).map((item) => [item.handle, item.label]),
      );
      // Four at a time: each opens the store on a database thread of its own, most of a recall's time.
      const recalls = await inBatches(run.handles, 4, (handle) =>
        runCommand(['recall', '--store', store, '--session', run.session, handle]),
      );
      for (const [position, recall] of recalls.entries()) {
        const handle = run.handles[position]!;
        expect(recall.stderr, `${run.name}: ${handle}`).toBe('');
        expect(recall.code, `${run.name}: ${handle}`).toBe(0);
        const label = labels.get(handle)!;
        run.recalled.set(handle, { label, text: recall.stdout });
        // A tool result is archived whole: printed back exactly as the agent sent it.
        if (label.endsWith(' output')) {
          expect(run.originals.has(recall.stdout), `${run.name}: ${handle}`).toBe(true);
          toolResults++;
        }
      }
    }
    expect(toolResults).toBeGreaterThan(0);
    // And through the binary, as a user types it.
    const [first] = runs;
    const printed = await runBinary([
      'recall',
      '--store',
      store,
      '--session',
      first!.session,
      first!.handles[0]!,
    ]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(first!.recalled.get(first!.handles[0]!)!.text);
  }, 120_000);

  it('answers the same through compaction mcp, and its search finds a removed tool result by one of its lines', async () => {
    expect(runs.every((run) => run.recalled.size === run.handles.length)).toBe(true);
    // Every tool result a compaction removed or cut, and the lines that tell it from the others.
    const cases: { session: string; handle: string; line: string }[] = [];
    for (const run of runs) {
      const outputs = (await archivedItems(store, run.session)).filter((item) =>
        item.label.endsWith(' output'),
      );
      cases.push(...distinctiveLines(outputs).map((found) => ({ session: run.session, ...found })));
    }
    // Ten cases spread over the candidates of every run.
    const sampled = Array.from(
      { length: Math.min(10, cases.length) },
      (_, index) => cases[Math.floor((index * cases.length) / Math.min(10, cases.length))]!,
    );
    expect(sampled).toHaveLength(10);
    let foundFirst = 0;
    for (const run of runs) {
      const client = await mcpClient(['--store', store, '--session', run.session], folder);
      try {
        for (const handle of run.handles) {
          expect(await recallWhole(client, handle), `${run.name}: ${handle}`).toBe(
            run.recalled.get(handle)!.text,
          );
        }
        for (const { handle, line } of sampled.filter((sample) => sample.session === run.session)) {
          const answer = await callTool(client, 'search', { query: `"${line}"` });
          if (answer.text.includes(`\n1. recall "${handle}"`)) foundFirst++;
        }
      } finally {
        await client.close();
      }
    }
    expect(foundFirst).toBeGreaterThanOrEqual(9);
  }, 120_000);
});

/**
 * Lines of each tool result that no other tool result of the session holds: a line a model would remember of
 * a file it read or a command's output. At most two per result: printable text of 30 to 120 characters, with
 * no quote (a phrase's end) and no run of spaces (a table's layout, which no one types again).
 */
function distinctiveLines(outputs: readonly ArchivedItem[]): { handle: string; line: string }[] {
  return outputs.flatMap(({ handle, text }) => {
    const lines = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length >= 30 && line.length <= 120 && /^[\x20-\x7e]+$/.test(line))
      .filter((line) => !line.includes('"') && !line.includes('  '))
      .filter((line) => outputs.every((other) => other.handle === handle || !other.text.includes(line)));
    return [...new Set(lines)].slice(0, 2).map((line) => ({ handle, line }));
  });
}

/** `compaction mcp` over standard input and output, through the MCP SDK's client, as an agent starts it. */
async function mcpClient(args: string[], cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binary, 'mcp', ...args],
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'proxy-archive-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function callTool(client: Client, name: string, input: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: input })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { text, isError: result.isError === true };
}

/**
 * The whole text of an item through the `recall` tool: in one answer when it fits the tool's bound, else
 * page by page from the line the cut names, as a model reads a long one.
 */
async function recallWhole(client: Client, handle: string): Promise<string> {
  const whole = await callTool(client, 'recall', { handle });
  expect(whole.isError, whole.text).toBe(false);
  const header = new RegExp(`^\\[recall "${handle}" \\(.*\\): lines (\\d+)-(\\d+) of (\\d+)\\]\n`);
  if (!header.test(whole.text)) return whole.text;
  const lines: string[] = [];
  let fromLine = 1;
  for (;;) {
    const page = await callTool(client, 'recall', { handle, fromLine });
    const body = page.text.replace(header, '');
    const cut = /\n\[cut: lines \d+-(\d+) shown; call recall with fromLine (\d+) for more\]$/.exec(body);
    if (cut === null) return [...lines, body].join('\n');
    lines.push(body.slice(0, cut.index));
    expect(Number(cut[2])).toBeGreaterThan(fromLine);
    fromLine = Number(cut[2]);
  }
}

/** `operation` over `items`, `size` at a time, the results in the items' order. */
async function inBatches<Item, Result>(
  items: readonly Item[],
  size: number,
  operation: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map(operation))));
  }
  return results;
}

/** The items a session archived, as the store holds them. */
async function archivedItems(path: string, sessionId: string): Promise<ArchivedItem[]> {
  const store = createSqliteCompactionStore({ path });
  try {
    return (await store.list(sessionId)).flatMap((record) => record.archived ?? []);
  } finally {
    await store.close();
  }
}

describe('compaction proxy --no-archive', () => {
  it('keeps only the compacted prefixes in its store, none of what the compactions removed', async () => {
    const folder = temporaryDirectory();
    upstream.reset();
    upstream.handle('/v1/messages', answerWithToolCalls(upstream));
    const args = ['--upstream', `anthropic=${upstream.url}`, '--context-window', '10000', '--no-archive'];
    const proxy = await startServer(args, {}, folder, 'proxy');
    try {
      await runAgent(new Anthropic({ apiKey: 'client-key', baseURL: proxy.url, maxRetries: 0 }), 14);
      expect(proxy.stderr()).toMatch(/compaction proxy: conversation [0-9a-f]{8}: \d+ → \d+ tokens/);
      expect(proxy.stderr()).not.toContain('archived');
    } finally {
      expect(await proxy.stop()).toBe(0);
    }
    const store = createSqliteCompactionStore({ path: join(folder, '.compaction', 'sessions.sqlite') });
    try {
      const sessions = await store.sessions();
      expect(sessions).toHaveLength(1);
      expect(await store.list(sessions[0]!)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
