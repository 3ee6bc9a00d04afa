import { createFastEstimator } from '../packages/core/dist/index.js';
import { startTestServer } from '../packages/testing/dist/loopback-server.js';
import {
  anthropicMessage,
  anthropicOverflow,
  anthropicStream,
  chatCompletion,
  chatOverflow,
  chatStream,
  responsesBody,
  responsesOverflow,
  responsesStream,
} from './provider-streams.mjs';
import { fileName } from './scripted-task.mjs';

const estimator = createFastEstimator();

/** The header the recording pass-through puts on each request, so an answer can be matched with what was sent. */
export const requestIdHeader = 'x-agents-request';

/** The parts of a request that take tokens, per format: what the provider counts. */
const countedParts = {
  anthropic: (body) => ({ system: body.system, tools: body.tools, messages: body.messages }),
  'openai-responses': (body) => ({ instructions: body.instructions, tools: body.tools, input: body.input }),
  'openai-chat': (body) => ({ tools: body.tools, messages: body.messages }),
};

/** Input tokens of a request, counted with the project's fast estimator over everything that takes tokens. */
export const countRequest = (format, body) => estimator.countText(JSON.stringify(countedParts[format](body)));

/** The conversation's items, per format. */
export const conversationItems = (format, body) =>
  (format === 'openai-responses'
    ? typeof body.input === 'string'
      ? [body.input]
      : body.input
    : body.messages) ?? [];

/** The last text part of a message's content: where an agent puts the request itself, after its reminders. */
const lastTextOf = (content) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? (content.filter((part) => typeof part === 'string' || typeof part.text === 'string').at(-1)?.text ??
        '')
      : '';

const textOf = (content) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part === 'string' ? part : (part.text ?? ''))).join('\n')
      : '';

/** What the last item asks for: the next step after a tool result, the task itself, or anything else. */
function lastTurn(format, items) {
  const last = items.at(-1);
  if (last === undefined) return { kind: 'other', text: '', lastText: '' };
  if (typeof last === 'string') return { kind: 'user', text: last, lastText: last };
  if (format === 'anthropic') {
    const toolResult =
      Array.isArray(last.content) && last.content.some((block) => block.type === 'tool_result');
    return {
      kind: last.role === 'user' && toolResult ? 'tool-result' : last.role,
      text: textOf(last.content),
      lastText: lastTextOf(last.content),
    };
  }
  const lastText = lastTextOf(last.content);
  if (format === 'openai-chat') {
    return { kind: last.role === 'tool' ? 'tool-result' : last.role, text: textOf(last.content), lastText };
  }
  if (/_output$/.test(last.type ?? '')) return { kind: 'tool-result', text: '', lastText: '' };
  return { kind: last.role ?? last.type, text: textOf(last.content), lastText };
}

/** The tools a request offers, as name and parameter schema, per format. */
function toolsOf(format, body) {
  return (body.tools ?? []).map((tool) => {
    if (format === 'anthropic') return { name: tool.name, schema: tool.input_schema ?? {} };
    if (format === 'openai-chat')
      return { name: tool.function?.name, schema: tool.function?.parameters ?? {} };
    return { name: tool.name ?? tool.type, schema: tool.parameters ?? {} };
  });
}

const readToolNames = ['Read', 'read', 'read_file', 'view'];
const shellToolNames = ['exec_command', 'shell_command', 'shell', 'bash', 'Bash'];

/** The call that reads `path` with the tools offered, or undefined when none reads files. */
function readCall(tools, folder, path) {
  const absolute = `${folder}/${path}`;
  const reader = tools.find((tool) => readToolNames.includes(tool.name));
  if (reader !== undefined) {
    const properties = Object.keys(reader.schema.properties ?? {});
    const key =
      ['file_path', 'filePath', 'absolute_path', 'path'].find((name) => properties.includes(name)) ?? 'path';
    return { name: reader.name, input: { [key]: absolute } };
  }
  const shell = tools.find((tool) => shellToolNames.includes(tool.name));
  if (shell === undefined) return undefined;
  const properties = shell.schema.properties ?? {};
  const key = ['cmd', 'command'].find((name) => name in properties) ?? 'command';
  const value = properties[key]?.type === 'array' ? ['cat', absolute] : `cat ${absolute}`;
  return {
    name: shell.name,
    input: { [key]: value, ...('workdir' in properties ? { workdir: folder } : {}) },
  };
}

/** A request for a summary (an agent's own compaction), answered in text. */
const summaryRequest = /\b(?:create|write|provide|generate|produce)\b[^.]{0,80}\bsummary\b|\bsummari[sz]e\b/i;

/** The highest file number that an earlier call of the request read. */
function filesRead(body) {
  let highest = 0;
  for (const match of JSON.stringify(body).matchAll(/file-(\d{2})\.txt/g))
    highest = Math.max(highest, Number(match[1]));
  return highest;
}

/** What an `extraStep` asked for, as the answer's text and call (its id in the provider's form). */
function extraAnswer(format, extra) {
  const prefix = format === 'anthropic' ? 'toolu' : 'call';
  const call = extra.call === undefined ? {} : { call: { ...extra.call, id: `${prefix}_${extra.call.id}` } };
  return { text: extra.text ?? '', ...call };
}

/**
 * Starts the scripted provider on 127.0.0.1: on `/v1/messages`, `/v1/responses` and `/v1/chat/completions` it
 * answers as the real API does (a stream when asked), reading the next file of the task after each tool result
 * and answering DONE after the last, and refuses a request whose input tokens pass `limit` with the provider's
 * own overflow error. `usageAtMost` caps the input tokens its answers report, as when a proxy in front keeps
 * the requests it forwards under its window: the agent's own compaction then stays off, as it does through the
 * proxy. `limit` can be changed between runs with `setLimit`. `extraStep({ format, body, items, turn, tools })`,
 * when given, may answer a request of the task first (`{ call }` or `{ text }`), as a task of its own scripts.
 */
export async function startScriptedProvider({ folder, fileCount, limit, usageAtMost, extraStep }) {
  const server = await startTestServer();
  const exchanges = [];
  let currentLimit = limit;
  let answers = 0;
  const route = (path, format) =>
    server.handle(path, (request) => {
      const body = request.body ?? {};
      const streamed = body.stream === true;
      const inputTokens = countRequest(format, body);
      const answer = {
        id: `${++answers}`,
        model: body.model ?? 'scripted',
        inputTokens: Math.min(inputTokens, usageAtMost ?? inputTokens),
      };
      const exchange = {
        requestId: request.headers[requestIdHeader],
        format,
        path,
        body,
        inputTokens,
        refused: false,
        kind: 'side',
      };
      exchanges.push(exchange);
      if (inputTokens > currentLimit) {
        exchange.refused = true;
        if (format === 'anthropic') return anthropicOverflow(inputTokens, currentLimit);
        if (format === 'openai-chat') return chatOverflow(inputTokens, currentLimit);
        return responsesOverflow(answer, streamed);
      }
      const items = conversationItems(format, body);
      const turn = lastTurn(format, items);
      const read = filesRead(body);
      const next = read + 1;
      const call = readCall(toolsOf(format, body), folder, `files/${fileName(next)}`);
      const thinks =
        format === 'anthropic'
          ? body.thinking?.type !== undefined && body.thinking.type !== 'disabled'
          : format === 'openai-responses' && body.reasoning != null;
      const thinking = thinks ? `The task says to read the files in order; ${read} read so far.` : undefined;
      const asksForSummary = turn.kind === 'user' && summaryRequest.test(turn.lastText);
      const onTask = JSON.stringify(body).includes('Audit the folder files/');
      const extra = onTask
        ? extraStep?.({ format, body, items, turn, tools: toolsOf(format, body) })
        : undefined;
      if (extra !== undefined) {
        exchange.kind = 'extra';
        Object.assign(answer, { thinking, ...extraAnswer(format, extra) });
      } else if (
        call !== undefined &&
        onTask &&
        !asksForSummary &&
        (turn.kind === 'tool-result' || turn.kind === 'user')
      ) {
        if (next > fileCount) {
          exchange.kind = 'done';
          Object.assign(answer, { thinking, text: `DONE: read all ${fileCount} files.` });
        } else {
          exchange.kind = 'read';
          const prefix = format === 'anthropic' ? 'toolu' : 'call';
          Object.assign(answer, {
            thinking,
            text: `Reading ${fileName(next)}.`,
            call: { id: `${prefix}_${answer.id}`, ...call },
          });
        }
      } else {
        // A request of the agent's own (a title, a summary of its own compaction): a short plain answer.
        const progress = read === 0 ? 'no file read yet' : `read ${fileName(1)} to ${fileName(read)}`;
        Object.assign(answer, { text: `Summary: ${progress}, of ${fileCount} files, in order.` });
      }
      exchange.answer = answer;
      if (format === 'anthropic')
        return streamed ? { chunks: anthropicStream(answer) } : { body: anthropicMessage(answer) };
      if (format === 'openai-chat') {
        return streamed
          ? { chunks: chatStream(answer, body.stream_options?.include_usage === true) }
          : { body: chatCompletion(answer) };
      }
      return streamed ? { chunks: responsesStream(answer) } : { body: responsesBody(answer) };
    });
  route('/v1/messages', 'anthropic');
  route('/v1/responses', 'openai-responses');
  route('/v1/chat/completions', 'openai-chat');
  return {
    url: server.url,
    exchanges,
    setLimit(value) {
      currentLimit = value;
    },
    reset() {
      exchanges.length = 0;
    },
    close: () => server.close(),
  };
}
