import {
  compactionMetadataOf,
  deepEqual,
  type JSONObject,
  type JSONValue,
  type Message,
  type Part,
} from '@compaction/core';
import type { MastraMessage, MastraPart } from '../mastra-types.js';
import {
  isRecord,
  type MastraEnvelope,
  type MastraMessageMark,
  mastraMarkOf,
  mastraPartMarkOf,
} from './mastra-metadata.js';
import { reasoningTextOf } from './reasoning-text.js';

type ToolInvocationPart = Extract<MastraPart, { type: 'tool-invocation' }>;
type ReasoningMastraPart = Extract<MastraPart, { type: 'reasoning' }>;

/** Settings of {@link toMastraMessages}. */
export interface ToMastraSettings {
  /** The Mastra message to give back for a group of core messages, when they are its unchanged conversion. */
  reuse?: (group: readonly Message[]) => MastraMessage | undefined;
}

/**
 * Converts core messages to Mastra messages (format 2). The pieces {@link fromMastra} made of one Mastra
 * message join again: unchanged, into the message as it was; after compaction changed or dropped some, into
 * a message of what is left (its steps separated by step boundaries, `content.content` and
 * `content.toolInvocations` made again from the parts). A tool message joins the assistant message before it.
 * Messages a strategy wrote (summaries, removal notes) become new messages whose `content.metadata.compaction`
 * holds their marks, dated like the message before them so Mastra, which orders messages by date, keeps them
 * in place.
 */
export function toMastra(messages: readonly Message[]): MastraMessage[] {
  return toMastraMessages(messages);
}

/** {@link toMastra}, with a way to give back the caller's own objects for unchanged messages. */
export function toMastraMessages(
  messages: readonly Message[],
  settings: ToMastraSettings = {},
): MastraMessage[] {
  const converted: Array<MastraMessage | Omit<MastraMessage, 'createdAt'>> = [];
  const usedIds = new Set<string>();
  let anchor = 'start';
  for (const [position, group] of groupPieces(messages).entries()) {
    const reused = settings.reuse?.(group);
    const message = reused ?? rebuild(group, `${anchor}:compaction:${position}`);
    const unique = usedIds.has(message.id) ? { ...message, id: `${message.id}:${position}` } : message;
    usedIds.add(unique.id);
    anchor = unique.id;
    converted.push(unique);
  }
  return dated(converted);
}

/** Consecutive pieces of one Mastra message, and tool messages with the assistant message before them. */
function groupPieces(messages: readonly Message[]): Message[][] {
  const groups: Message[][] = [];
  for (const message of messages) {
    const mark = mastraMarkOf(message.metadata);
    const last = groups.at(-1);
    const lastMark = last === undefined ? undefined : mastraMarkOf(last.at(-1)!.metadata);
    const continues =
      last !== undefined &&
      last[0]!.role === 'assistant' &&
      (mark === undefined
        ? message.role === 'tool'
        : lastMark !== undefined && lastMark.message.id === mark.message.id && lastMark.piece < mark.piece);
    if (continues) last.push(message);
    else groups.push([message]);
  }
  return groups;
}

function rebuild(
  group: readonly Message[],
  fallbackId: string,
): Omit<MastraMessage, 'createdAt'> & {
  createdAt?: Date;
} {
  const envelope = group
    .map((message) => mastraMarkOf(message.metadata))
    .find((mark) => mark !== undefined)?.message;
  const exact = isWholeAndUnchanged(group);
  const role = group[0]!.role === 'tool' ? 'assistant' : group[0]!.role;
  const parts = exact
    ? exactParts(group)
    : role === 'assistant'
      ? stepParts(group)
      : group[0]!.content.map(toMastraPart);
  const content = exact
    ? { format: 2 as const, ...envelope!.content, parts }
    : rebuiltContent(group, envelope, parts);
  const message: Omit<MastraMessage, 'createdAt'> & { createdAt?: Date } = {
    id: envelope?.id ?? group[0]!.id ?? fallbackId,
    role,
    // A copy: Mastra changes the messages it is given (it merges an assistant message into the one before).
    content: structuredClone(content) as MastraMessage['content'],
  };
  if (envelope !== undefined) {
    message.createdAt = new Date(envelope.createdAt);
    if (envelope.threadId !== undefined) message.threadId = envelope.threadId;
    if (envelope.resourceId !== undefined) message.resourceId = envelope.resourceId;
    if (envelope.type !== undefined) message.type = envelope.type;
  }
  return message;
}

/** Whether `group` is every piece of one Mastra message, in order, none changed by a strategy. */
function isWholeAndUnchanged(group: readonly Message[]): boolean {
  const marks = group.map((message) => mastraMarkOf(message.metadata));
  const first = marks[0];
  if (first === undefined || first.pieces !== group.length) return false;
  return marks.every(
    (mark, index) =>
      mark !== undefined &&
      mark.piece === index &&
      mark.message.id === first.message.id &&
      deepEqual(group[index]!.metadata?.compaction, envelopeCompaction(mark.message)),
  );
}

function envelopeCompaction(envelope: MastraEnvelope): JSONValue | undefined {
  const metadata = envelope.content.metadata;
  return isRecord(metadata) ? (metadata.compaction as JSONValue | undefined) : undefined;
}

/** The Mastra parts of a whole, unchanged group, each at the index it had. */
function exactParts(group: readonly Message[]): MastraPart[] {
  const parts: Array<MastraPart | undefined> = [];
  for (const message of group) {
    const mark = mastraMarkOf(message.metadata) as MastraMessageMark;
    for (const { index, part } of mark.detached ?? []) parts[index] = part as unknown as MastraPart;
    message.content.forEach((part, position) => {
      const index = mark.parts[position]!;
      if (part.type === 'tool-result') {
        const invocation = parts[index] as ToolInvocationPart | undefined;
        if (invocation !== undefined) invocation.toolInvocation = withResult(invocation.toolInvocation, part);
      } else parts[index] = toMastraPart(part);
    });
  }
  return parts.filter((part) => part !== undefined);
}

/** The parts of an assistant group that compaction changed: its steps, separated by step boundaries. */
function stepParts(group: readonly Message[]): MastraPart[] {
  const parts: MastraPart[] = [];
  const invocations = new Map<string, ToolInvocationPart>();
  for (const message of group) {
    if (message.role === 'tool') {
      for (const result of message.content) {
        const invocation = invocations.get(result.toolCallId);
        if (invocation !== undefined)
          invocation.toolInvocation = withResult(invocation.toolInvocation, result);
      }
      continue;
    }
    if (parts.length > 0) parts.push({ type: 'step-start' });
    for (const part of message.content) {
      const converted = toMastraPart(part);
      if (converted.type === 'tool-invocation')
        invocations.set(converted.toolInvocation.toolCallId, converted);
      parts.push(converted);
    }
  }
  return parts;
}

function withResult(
  invocation: ToolInvocationPart['toolInvocation'],
  result: Extract<Part, { type: 'tool-result' }>,
): ToolInvocationPart['toolInvocation'] {
  return { ...invocation, state: 'result', result: resultValue(result) };
}

/** The result as Mastra had it: JSON parsed back when it was JSON and still is, else the text. */
function resultValue(result: Extract<Part, { type: 'tool-result' }>): unknown {
  const text =
    typeof result.output === 'string'
      ? result.output
      : result.output.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  if (mastraPartMarkOf(result.metadata)?.output !== 'json') return text;
  try {
    return JSON.parse(text);
  } catch {
    // A strategy shortened it: the model gets the shortened text.
    return text;
  }
}

function rebuiltContent(
  group: readonly Message[],
  envelope: MastraEnvelope | undefined,
  parts: MastraPart[],
): JSONObject {
  const { content: text, toolInvocations, metadata, ...rest } = envelope?.content ?? {};
  const content: JSONObject = { format: 2, ...rest, parts: parts as unknown as JSONValue };
  // Mastra's copies of the text and the tool calls, made again so they say what the parts say.
  if (text !== undefined) {
    content.content = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  }
  if (toolInvocations !== undefined) {
    content.toolInvocations = parts.flatMap((part) =>
      part.type === 'tool-invocation' && part.toolInvocation.state === 'result' ? [part.toolInvocation] : [],
    ) as unknown as JSONValue;
  }
  const compaction = compactionMetadataOf(group[0]!);
  const { compaction: _stale, ...otherMetadata } = isRecord(metadata) ? metadata : {};
  const merged = compaction === undefined ? otherMetadata : { ...otherMetadata, compaction };
  if (metadata !== undefined || Object.keys(merged).length > 0) content.metadata = merged as JSONObject;
  return content;
}

function toMastraPart(part: Part): MastraPart {
  const mark = mastraPartMarkOf(part.metadata);
  const providerMetadata =
    mark?.providerMetadata === undefined ? {} : { providerMetadata: mark.providerMetadata as never };
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...providerMetadata };
    case 'reasoning':
      return reasoningPart(part.text, mark?.part);
    case 'image':
      return { type: 'file', data: part.image, mimeType: part.mediaType ?? 'image/png', ...providerMetadata };
    case 'file':
      return { type: 'file', data: part.data, mimeType: part.mediaType, ...providerMetadata };
    case 'tool-call': {
      const step = typeof mark?.step === 'number' ? { step: mark.step } : {};
      return {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          args: part.input,
          ...step,
        },
        ...providerMetadata,
      } as ToolInvocationPart;
    }
    case 'tool-result':
      return { type: 'text', text: String(resultValue(part)) };
  }
}

function reasoningPart(text: string, stored: JSONValue | undefined): MastraPart {
  const original = isRecord(stored) ? ({ type: 'reasoning', ...stored } as ReasoningMastraPart) : undefined;
  if (original !== undefined && reasoningTextOf(original) === text) return original;
  const providerMetadata =
    original?.providerMetadata === undefined ? {} : { providerMetadata: original.providerMetadata };
  return { type: 'reasoning', reasoning: text, details: [{ type: 'text', text }], ...providerMetadata };
}

/**
 * Dates the messages in order: Mastra sorts the messages it is given by date, so a message dated before the one
 * ahead of it (a message kept from an earlier call beside ones dated now) or without a date (one a strategy
 * wrote) takes the date of the message before it; a leading one without a date takes the first date there is.
 */
function dated(messages: ReadonlyArray<MastraMessage | Omit<MastraMessage, 'createdAt'>>): MastraMessage[] {
  let latest = messages
    .map((message) => ('createdAt' in message ? message.createdAt : undefined))
    .find((date) => date !== undefined);
  return messages.map((message) => {
    const own = 'createdAt' in message ? message.createdAt : undefined;
    if (own !== undefined && (latest === undefined || own.getTime() >= latest.getTime())) {
      latest = own;
      return message as MastraMessage;
    }
    latest ??= new Date();
    return { ...message, createdAt: latest };
  });
}
