import {
  type AssistantMessage,
  InvalidMessagesError,
  type JSONObject,
  type JSONValue,
  type Message,
  type Metadata,
  type ToolResultPart,
  type UserMessage,
} from '@compaction/core';
import type { MastraMessage, MastraPart } from '../mastra-types.js';
import {
  isRecord,
  type MastraEnvelope,
  type MastraMessageMark,
  mastraMetadataKey,
  withMastraMark,
} from './mastra-metadata.js';
import { reasoningTextOf } from './reasoning-text.js';

type AssistantContentPart = AssistantMessage['content'][number];
type UserContentPart = UserMessage['content'][number];

/** One step of a Mastra assistant message: what the model said, and the results of the tools it called. */
interface Block {
  content: AssistantContentPart[];
  contentIndexes: number[];
  results: ToolResultPart[];
  resultIndexes: number[];
}

/**
 * Converts Mastra messages (format 2, as input processors get them) to core messages. A user or system message
 * becomes one core message; an assistant message becomes one assistant message per step, each followed by a
 * tool message with the results of the step's tool calls, as Mastra sends it to the model. What the core model
 * has no field for goes to `metadata.mastra`, so {@link toMastra} gives the Mastra messages back as they were.
 * Parts the model never sees (step boundaries, sources, tool calls without a result) are kept there too, and a
 * message made only of them has no core counterpart.
 */
export function fromMastra(messages: readonly MastraMessage[]): Message[] {
  return messages.flatMap((message, index) => fromMastraMessage(message, index));
}

/** The core messages of one Mastra message (`index` names it in errors). */
export function fromMastraMessage(message: MastraMessage, index: number): Message[] {
  const fail = (field: string, problem: string): never => {
    throw new InvalidMessagesError({
      issues: [{ index, path: field, message: `${problem} (Mastra message)` }],
    });
  };
  if (!isRecord(message) || !isRecord(message.content) || !Array.isArray(message.content.parts)) {
    return fail('content.parts', 'expected a format 2 message with content.parts');
  }
  if (typeof message.id !== 'string') return fail('id', 'expected a string id');
  if (!(message.createdAt instanceof Date) || Number.isNaN(message.createdAt.getTime())) {
    return fail('createdAt', 'expected a valid Date');
  }
  const envelope = envelopeOf(message);
  if (message.role === 'assistant') return assistantPieces(message.content.parts, envelope);
  if (message.role === 'user' || message.role === 'system') {
    return userOrSystem(message.role, message.content.parts, envelope);
  }
  return fail('role', `unknown role ${JSON.stringify(message.role)}`);
}

function envelopeOf(message: MastraMessage): MastraEnvelope {
  const { format: _format, parts: _parts, ...content } = message.content;
  const envelope: MastraEnvelope = {
    id: message.id,
    createdAt: message.createdAt.toISOString(),
    content: content as JSONObject,
  };
  if (message.threadId !== undefined) envelope.threadId = message.threadId;
  if (message.resourceId !== undefined) envelope.resourceId = message.resourceId;
  if (message.type !== undefined) envelope.type = message.type;
  return envelope;
}

function userOrSystem(
  role: 'user' | 'system',
  parts: readonly MastraPart[],
  envelope: MastraEnvelope,
): Message[] {
  const content: UserContentPart[] = [];
  const indexes: number[] = [];
  const detached: Array<{ index: number; part: JSONValue }> = [];
  parts.forEach((part, index) => {
    // A system message holds only text; Mastra sends nothing else of it.
    const converted = role === 'user' || part.type === 'text' ? userPart(part) : undefined;
    if (converted === undefined) detached.push({ index, part: part as unknown as JSONValue });
    else {
      content.push(converted);
      indexes.push(index);
    }
  });
  if (content.length === 0) return [];
  const mark: MastraMessageMark = { message: envelope, piece: 0, pieces: 1, parts: indexes };
  if (detached.length > 0) mark.detached = detached;
  const metadata = { [mastraMetadataKey]: mark, ...compactionMarksOf(envelope) };
  if (role === 'user') return [{ role, content, id: envelope.id, metadata }];
  return [{ role, content: content as Array<{ type: 'text'; text: string }>, id: envelope.id, metadata }];
}

/** Compaction's marks that {@link toMastra} put in the content's metadata, back where core reads them. */
function compactionMarksOf(envelope: MastraEnvelope): Metadata {
  const metadata = envelope.content.metadata;
  return isRecord(metadata) && isRecord(metadata.compaction) ? { compaction: metadata.compaction } : {};
}

function userPart(part: MastraPart): UserContentPart | undefined {
  const mark = withMastraMark(partMark(part));
  if (part.type === 'text') return { type: 'text', text: part.text, ...mark };
  if (part.type === 'file' && typeof part.data === 'string') {
    return part.mimeType.startsWith('image/')
      ? { type: 'image', image: part.data, mediaType: part.mimeType, ...mark }
      : { type: 'file', data: part.data, mediaType: part.mimeType, ...mark };
  }
  return undefined;
}

function partMark(part: MastraPart): JSONObject {
  return { providerMetadata: part.providerMetadata as JSONValue | undefined };
}

function assistantPieces(parts: readonly MastraPart[], envelope: MastraEnvelope): Message[] {
  const blocks: Block[] = [];
  const detached: Array<{ index: number; part: JSONValue }> = [];
  let block: Block | undefined;
  const current = (): Block => {
    if (block === undefined) {
      block = { content: [], contentIndexes: [], results: [], resultIndexes: [] };
      blocks.push(block);
    }
    return block;
  };
  parts.forEach((part, index) => {
    const isResult = part.type === 'tool-invocation' && part.toolInvocation.state === 'result';
    // Mastra sends a new step after a step boundary, and after tool results when other content follows.
    if (part.type === 'step-start' || (!isResult && block !== undefined && block.results.length > 0)) {
      block = undefined;
    }
    const converted = assistantPart(part);
    if (converted === undefined) {
      detached.push({ index, part: part as unknown as JSONValue });
      return;
    }
    const target = current();
    target.content.push(converted.content);
    target.contentIndexes.push(index);
    if (converted.result !== undefined) {
      target.results.push(converted.result);
      target.resultIndexes.push(index);
    }
  });
  const pieces: Array<{ message: Message; parts: number[] }> = [];
  for (const { content, contentIndexes, results, resultIndexes } of blocks) {
    pieces.push({ message: { role: 'assistant', content }, parts: contentIndexes });
    if (results.length > 0)
      pieces.push({ message: { role: 'tool', content: results }, parts: resultIndexes });
  }
  return pieces.map(({ message, parts: indexes }, piece) => {
    const mark: MastraMessageMark = { message: envelope, piece, pieces: pieces.length, parts: indexes };
    if (piece === 0 && detached.length > 0) mark.detached = detached;
    const id = piece === 0 ? envelope.id : `${envelope.id}:${piece}`;
    return {
      ...message,
      id,
      metadata: { [mastraMetadataKey]: mark, ...compactionMarksOf(envelope) },
    } as Message;
  });
}

function assistantPart(
  part: MastraPart,
): { content: AssistantContentPart; result?: ToolResultPart } | undefined {
  const mark = withMastraMark(partMark(part));
  switch (part.type) {
    case 'text':
      return { content: { type: 'text', text: part.text, ...mark } };
    case 'reasoning':
      return { content: reasoningPart(part) };
    case 'file':
      return typeof part.data === 'string'
        ? { content: { type: 'file', data: part.data, mediaType: part.mimeType, ...mark } }
        : undefined;
    case 'tool-invocation': {
      const invocation = part.toolInvocation;
      if (invocation.state !== 'result') return undefined;
      const { toolCallId, toolName } = invocation;
      const callMark = withMastraMark({ ...partMark(part), step: invocation.step });
      const result = invocation.result as JSONValue;
      const output = typeof result === 'string' ? result : JSON.stringify(result ?? null);
      return {
        content: {
          type: 'tool-call',
          toolCallId,
          toolName,
          input: (invocation.args ?? {}) as JSONValue,
          ...callMark,
        },
        result: {
          type: 'tool-result',
          toolCallId,
          toolName,
          output,
          ...withMastraMark({ output: typeof result === 'string' ? undefined : 'json' }),
        },
      };
    }
    default:
      return undefined;
  }
}

function reasoningPart(part: Extract<MastraPart, { type: 'reasoning' }>): AssistantContentPart {
  const anthropic = isRecord(part.providerMetadata) ? part.providerMetadata.anthropic : undefined;
  const signature =
    isRecord(anthropic) && typeof anthropic.signature === 'string' ? anthropic.signature : undefined;
  const redactedData =
    isRecord(anthropic) && typeof anthropic.redactedData === 'string' ? anthropic.redactedData : undefined;
  const { type: _type, ...rest } = part;
  return {
    type: 'reasoning',
    text: reasoningTextOf(part),
    ...(signature === undefined ? {} : { signature }),
    ...(redactedData === undefined ? {} : { redactedData }),
    metadata: { [mastraMetadataKey]: { part: rest as unknown as JSONValue } },
  };
}
