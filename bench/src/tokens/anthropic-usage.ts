/**
 * How far the Anthropic profile is from Anthropic's own counts: the usage that Claude Code recorded in the shared
 * sessions. Each request's input (`input_tokens` plus the cache reads and writes) holds the system prompt and the
 * tool definitions, which the session file does not, so the comparison is on the growth between two requests:
 * what the input grew by against the estimate of what the session added between them (the assistant's turn,
 * the tool results, the user's messages), with the framing core's fast estimator adds to messages and blocks.
 * The fixed part cancels out. Claude Code writes each block of an assistant turn on a line of its own, so a
 * turn's framing is counted per line, a little more than core counts for the same turn.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transcriptsDirectory } from '@compaction/testing/transcripts';
import { anthropicProfile, createTextEstimator } from '@compaction/token-estimator';

/** One session: Anthropic's growth of the input and the estimate of the same content. */
export interface AnthropicUsageRow {
  name: string;
  /** Requests whose growth was compared. */
  steps: number;
  /** What the recorded input grew by, summed over the steps. */
  recorded: number;
  /** The Anthropic profile's estimate of what was added, summed over the same steps. */
  estimated: number;
}

interface SessionLine {
  type?: string;
  isSidechain?: boolean;
  message?: {
    id?: string;
    role?: string;
    content?: unknown;
    usage?: {
      input_tokens?: number;
      cache_creation_input_tokens?: number;
      cache_read_input_tokens?: number;
    };
  };
}

const estimator = createTextEstimator({ profile: anthropicProfile });

/** The framing that core's fast estimator adds (its default overhead): per message, and per block. */
const messageOverhead = 4;
const blockOverhead = 2;

/** The text a block puts in the prompt: its text, thinking, tool name and input, or tool result. */
function blockText(block: unknown): string {
  if (typeof block === 'string') return block;
  if (typeof block !== 'object' || block === null) return '';
  const value = block as Record<string, unknown>;
  switch (value.type) {
    case 'text':
      return String(value.text ?? '');
    case 'thinking':
      return String(value.thinking ?? '');
    case 'tool_use':
      return `${String(value.name ?? '')} ${JSON.stringify(value.input ?? {})}`;
    case 'tool_result':
      return Array.isArray(value.content)
        ? value.content.map(blockText).join('\n')
        : String(value.content ?? '');
    default:
      return '';
  }
}

function contentText(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  return Array.isArray(content) ? content.map(blockText) : [];
}

const inputOf = (usage: NonNullable<NonNullable<SessionLine['message']>['usage']>) =>
  (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);

/**
 * The growth of the recorded input between consecutive requests of one session's main thread, against the
 * estimate of the messages between them. A step where the input shrank (the session was compacted) or whose
 * content has an image is left out.
 */
export function compareSession(name: string, lines: readonly SessionLine[]): AnthropicUsageRow {
  const row: AnthropicUsageRow = { name, steps: 0, recorded: 0, estimated: 0 };
  let previousInput: number | undefined;
  let previousId: string | undefined;
  let added = 0;
  let hasImage = false;
  for (const line of lines) {
    if (line.isSidechain || line.message === undefined) continue;
    const { message } = line;
    const isRequest = message.role === 'assistant' && message.usage !== undefined;
    if (isRequest && message.id !== previousId) {
      // A new request: its input holds everything up to here.
      const input = inputOf(message.usage!);
      if (previousInput !== undefined && input > previousInput && !hasImage) {
        row.steps++;
        row.recorded += input - previousInput;
        row.estimated += added;
      }
      previousInput = input;
      previousId = message.id;
      added = 0;
      hasImage = false;
    }
    if (message.role !== 'assistant' && message.role !== 'user') continue;
    if (JSON.stringify(message.content ?? '').includes('"type":"image"')) hasImage = true;
    added += messageOverhead;
    for (const text of contentText(message.content)) added += blockOverhead + estimator.countText(text);
  }
  return row;
}

/** Every Claude Code session of the shared transcripts; empty when they are absent. */
export function compareAnthropicUsage(): AnthropicUsageRow[] {
  const directory = transcriptsDirectory();
  if (directory === undefined) return [];
  const folder = join(directory, 'claude-code');
  let files: string[];
  try {
    files = readdirSync(folder).filter((file) => file.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return files.sort().flatMap((file) => {
    const lines = readFileSync(join(folder, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as SessionLine);
    const row = compareSession(`claude-code/${file.replace(/\.jsonl$/, '')}`, lines);
    return row.steps > 0 ? [row] : [];
  });
}
