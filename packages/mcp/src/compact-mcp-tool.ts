import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { type CompactTarget, noCompactTargetText } from './compact-target.js';
import type { CompactionMcpContext } from './compaction-mcp-context.js';
import { errorResult, textResult } from './tool-result.js';

/** How the store names the proxy's conversations: `proxy:<key>`. */
const proxySessionPrefix = 'proxy:';

/** How long the proxy or serve may take to answer; serve compacts before it answers. */
const answerTimeoutMs = 120_000;

const description =
  'Compacts this conversation now, even when it is under its compaction target: what is removed is ' +
  'archived and stays recallable. Through a compaction proxy, the compaction happens on your next request; ' +
  'give instructions to say what the summary must keep.';

const inputSchema = {
  instructions: z
    .string()
    .min(1)
    .optional()
    .describe('What the compaction must keep or focus on, as in a /compact command.'),
  conversation: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The conversation (its session id, as compaction_status lists it); leave it out for the default one, ' +
        "or, through a proxy, for the conversation of the proxy's next request.",
    ),
};

/** Registers `compact`: asks the configured proxy or serve to compact a conversation with `force`. */
export function registerCompactTool(server: McpServer, context: CompactionMcpContext): void {
  server.registerTool(
    'compact',
    { title: 'Compact', description, inputSchema, annotations: { destructiveHint: false } },
    async ({ instructions, conversation }) => {
      const target = context.compactTarget;
      if (target === undefined) return errorResult(noCompactTargetText);
      const sessionId = conversation ?? context.sessionId;
      try {
        return target.kind === 'proxy'
          ? await askProxy(target, sessionId, instructions)
          : await askServe(target, sessionId, instructions);
      } catch (error) {
        const reason = (error as Error).message ?? String(error);
        return errorResult(`compact: could not reach the ${target.kind} at ${target.url}: ${reason}`);
      }
    },
  );
}

/** Marks the conversation at the proxy; its next request is compacted. */
async function askProxy(
  target: CompactTarget,
  sessionId: string | undefined,
  instructions: string | undefined,
): Promise<CallToolResult> {
  const key = sessionId?.startsWith(proxySessionPrefix)
    ? sessionId.slice(proxySessionPrefix.length)
    : (sessionId ?? 'next');
  const answer = await post(
    target,
    `compaction/conversations/${encodeURIComponent(key)}/compact`,
    instructions === undefined ? {} : { instructions },
  );
  if (answer.status !== 202) return refused('proxy', answer);
  const which = key === 'next' ? 'the next request through the proxy' : `the next request of "${key}"`;
  return textResult(
    `The proxy will compact ${which} (your next turn), whatever its size; what it removes is archived and ` +
      'stays recallable.',
  );
}

/** Compacts the serve session now, with `force`. */
async function askServe(
  target: CompactTarget,
  sessionId: string | undefined,
  instructions: string | undefined,
): Promise<CallToolResult> {
  if (sessionId === undefined) {
    return errorResult(
      'compact: name the serve session to compact (conversation), or start the MCP server with --session <id>',
    );
  }
  const answer = await post(target, `v1/sessions/${encodeURIComponent(sessionId)}/compact`, {
    force: true,
    ...(instructions === undefined ? {} : { instructions }),
  });
  if (answer.status !== 200) return refused('serve', answer);
  const body = answer.body as {
    compacted?: boolean;
    skipped?: string;
    event?: { tokensBefore: number; tokensAfter: number };
  };
  if (body.compacted !== true || body.event === undefined) {
    return textResult(`Session "${sessionId}" was not compacted (${body.skipped ?? 'nothing to remove'}).`);
  }
  const { tokensBefore, tokensAfter } = body.event;
  return textResult(
    `Session "${sessionId}" compacted: ${tokensBefore} -> ${tokensAfter} tokens; what was removed is archived.`,
  );
}

/** A refusal as a tool error, with the service's own message. */
function refused(kind: string, answer: { status: number; body: unknown }): CallToolResult {
  const message = (answer.body as { error?: { message?: string } } | undefined)?.error?.message;
  return errorResult(`compact: the ${kind} answered ${answer.status}${message ? `: ${message}` : ''}`);
}

async function post(target: CompactTarget, path: string, body: unknown) {
  const base = target.url.endsWith('/') ? target.url : `${target.url}/`;
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(target.token === undefined ? {} : { authorization: `Bearer ${target.token}` }),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(answerTimeoutMs),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed };
}
