import type { ServerResponse } from 'node:http';
import type { Message } from '@compaction/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/temporary-directory.js';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { resolveSettings } from '../config/resolve-settings.js';
import {
  type CompactionThreadAnswer,
  type CompactionThreadTask,
  compactionWorkerScript,
} from '../workers/compact-task.js';
import { WorkerPool, workerFailed } from '../workers/worker-pool.js';
import { largeAgentRequest } from './__fixtures__/large-conversation.js';
import {
  inlineConversationWriter,
  sendJsonWithConversation,
  threadedConversationWriter,
} from './conversation-answer.js';
import { readRequestConversation, type ServedFormat, shapeOf } from './request-conversation.js';

/** A response that keeps what is written to it. */
function recordingResponse() {
  const chunks: Buffer[] = [];
  let headers: Record<string, unknown> = {};
  let status = 0;
  const response = {
    writeHead(code: number, given: Record<string, unknown>) {
      status = code;
      headers = given;
      return response;
    },
    write(chunk: Uint8Array) {
      chunks.push(Buffer.from(chunk));
      return true;
    },
    end(chunk: Uint8Array) {
      chunks.push(Buffer.from(chunk));
      return response;
    },
  };
  return {
    response: response as unknown as ServerResponse,
    written: () => ({ status, headers, body: Buffer.concat(chunks) }),
  };
}

const fields = (prefix: string) =>
  fc
    .dictionary(fc.string(), fc.jsonValue())
    .map((value) =>
      Object.fromEntries(Object.entries(value).map(([key, item]) => [`${prefix}${key}`, item])),
    );

describe('sendJsonWithConversation', () => {
  it('answers the bytes JSON.stringify gives for the whole answer', () => {
    fc.assert(
      fc.property(fields('head '), fc.jsonValue(), fields('tail '), (head, conversation, tail) => {
        const { response, written } = recordingResponse();
        const bytes = Buffer.from(JSON.stringify(conversation), 'utf8');
        sendJsonWithConversation(response, 201, head, bytes, tail);
        const expected = Buffer.from(JSON.stringify({ ...head, conversation, ...tail }), 'utf8');
        const answer = written();
        expect(answer.body.toString('utf8')).toBe(expected.toString('utf8'));
        expect(answer.headers['content-length']).toBe(expected.byteLength);
        expect(answer.status).toBe(201);
      }),
    );
  });
});

describe('threadedConversationWriter', () => {
  const pools: WorkerPool<CompactionThreadTask, CompactionThreadAnswer>[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  });

  async function startPool() {
    const registry = await createInstalledStrategyRegistry();
    const settings = resolveSettings(registry, {}, temporaryDirectory());
    const pool = new WorkerPool<CompactionThreadTask, CompactionThreadAnswer>({
      script: compactionWorkerScript,
      size: 1,
      workerData: { settings, policy: {}, strategyNames: [], maxBodyBytes: 1 << 26, idleMs: 60_000 },
    });
    pools.push(pool);
    return pool;
  }

  it('writes large conversations on a thread, byte for byte as the event loop, in every format', async () => {
    const pool = await startPool();
    const tasks: string[] = [];
    const problems: Error[] = [];
    const writer = threadedConversationWriter({
      pool: {
        run(task, transfer) {
          tasks.push(task.kind ?? 'compact');
          return pool.run(task, transfer);
        },
      },
      minimumBytes: 100_000,
      unavailable: (error) => problems.push(error),
    });
    const request = largeAgentRequest(300_000);
    const read = await readRequestConversation(request, 'openai-chat');
    const formats: ServedFormat[] = ['core', 'anthropic', 'openai-chat', 'openai-responses'];
    for (const format of formats) {
      // The request's own fields in its format; a bare list in the others.
      const shape = format === 'openai-chat' ? shapeOf(read) : { list: true };
      const messages: readonly Message[] = read.messages;
      const threaded = Buffer.from(await writer(messages, format, shape));
      const inline = Buffer.from(await inlineConversationWriter(messages, format, shape));
      expect(threaded.equals(inline), format).toBe(true);
    }
    expect(tasks).toEqual(['write', 'write', 'write', 'write']);
    // A small history is written on the event loop: moving it would cost more than writing it.
    const small = read.messages.slice(0, 4);
    expect(Buffer.from(await writer(small, 'anthropic', undefined))).toEqual(
      Buffer.from(await inlineConversationWriter(small, 'anthropic', undefined)),
    );
    expect(tasks).toHaveLength(4);
    expect(problems).toEqual([]);
  }, 60_000);

  it('writes the answer on the event loop when its thread dies, rather than failing a change already made', async () => {
    const read = await readRequestConversation(largeAgentRequest(50_000), 'openai-chat');
    const problems: Error[] = [];
    const writer = threadedConversationWriter({
      pool: { run: () => Promise.reject(workerFailed('exit code 1')) },
      minimumBytes: 0,
      unavailable: (error) => problems.push(error),
    });
    const written = Buffer.from(await writer(read.messages, 'anthropic', undefined));
    expect(written).toEqual(
      Buffer.from(await inlineConversationWriter(read.messages, 'anthropic', undefined)),
    );
    // Not a thread that cannot work: the next answer tries a thread again.
    expect(problems).toEqual([]);
  });

  it('carries a conversion error from the thread as the event loop throws it', async () => {
    const pool = await startPool();
    const writer = threadedConversationWriter({ pool, minimumBytes: 0, unavailable: () => undefined });
    // A tool result whose call is nowhere: Anthropic's converter refuses it.
    const broken = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'nowhere',
            toolName: 'bash',
            output: { type: 'text', value: 'x' },
          },
        ],
      },
    ] as unknown as Message[];
    const inline = await inlineConversationWriter(broken, 'anthropic', undefined).then(
      () => undefined,
      (error: Error) => error,
    );
    const threaded = await writer(broken, 'anthropic', undefined).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(inline).toBeInstanceOf(Error);
    expect(threaded?.message).toBe(inline?.message);
    expect(threaded?.name).toBe(inline?.name);
  }, 60_000);
});
