import type { JSONValue, Message, Part, ToolResultPart } from '@compaction/core';
import { isJSONValue } from '@compaction/core';
import { ConversionProblem } from '@compaction/provider-utils';
import { dataToString } from './data-content.js';
import { elementReader, type OptionsReader } from './element-reader.js';
import { isRecord, type JSONRecord, readProviderOptions } from './metadata-slot.js';
import { outputFromAiSdk } from './tool-result-output.js';

/** A part kept outside the core content, with its position in the AI SDK content. */
export interface DetachedPart extends JSONRecord {
  index: number;
  part: JSONValue;
}

/** The outcome of decoding one AI SDK message. */
export interface Decoded {
  message: Message;
  /** Whether a compaction slot was read, so the caller checks that encoding leads back to the input. */
  usedSlot: boolean;
}

/**
 * Decodes one AI SDK message (a `ModelMessage` or a provider-level prompt message: the shapes overlap) into a
 * core message. With `useSlots`, fields an earlier encoding kept under `providerOptions.compaction` are
 * restored; without, they stay ordinary provider options. Throws {@link ConversionProblem}.
 */
export function decodeMessage(input: unknown, useSlots: boolean): Decoded {
  if (!isRecord(input)) throw new ConversionProblem('', 'expected a message object');
  let usedSlot = false;
  const readOptions = (providerOptions: unknown, path: string) => {
    try {
      const read = readProviderOptions(providerOptions, useSlots);
      usedSlot ||= read.usedSlot;
      return read;
    } catch (error) {
      throw new ConversionProblem(path, (error as Error).message);
    }
  };
  const { slot, extras, done } = elementReader(input, '', readOptions);
  let content: Part[];

  switch (input.role) {
    case 'system': {
      if (typeof input.content !== 'string') throw new ConversionProblem('content', 'must be a string');
      const parts = slot?.content;
      content =
        Array.isArray(parts) && isJSONValue(parts)
          ? (parts as unknown as Part[])
          : [{ type: 'text', text: input.content }];
      break;
    }
    case 'user':
    case 'assistant':
    case 'tool': {
      const role = input.role;
      if (typeof input.content === 'string' && role !== 'tool') {
        extras.content = 'string';
        content = [{ type: 'text', text: input.content }];
        break;
      }
      if (!Array.isArray(input.content)) throw new ConversionProblem('content', 'must be an array of parts');
      content = [];
      const detached: DetachedPart[] = [];
      input.content.forEach((part, index) => {
        const path = `content[${index}]`;
        if (!isRecord(part)) throw new ConversionProblem(path, 'expected a part object');
        if (isDetached(part, role)) {
          if (!isJSONValue(part)) throw new ConversionProblem(path, 'must be JSON');
          detached.push({ index, part: part as JSONValue });
          return;
        }
        content.push(decodePart(part, role, path, readOptions));
      });
      if (detached.length > 0) extras.detached = detached;
      break;
    }
    default:
      throw new ConversionProblem('role', `unknown role ${JSON.stringify(input.role)}`);
  }

  const message = done({
    role: input.role,
    content,
    ...(typeof slot?.id === 'string' ? { id: slot.id } : {}),
  }) as Message;
  return { message, usedSlot };
}

/**
 * Parts the core model has no place for in that role: tool approvals, and tools the provider runs itself
 * (their calls and results both sit in the assistant message and must not be paired like local tools).
 */
function isDetached(part: Record<string, unknown>, role: string): boolean {
  switch (part.type) {
    case 'tool-approval-request':
    case 'tool-approval-response':
      return true;
    case 'tool-call':
      return part.providerExecuted === true;
    case 'tool-result':
      return role === 'assistant';
    default:
      return false;
  }
}

const partTypesByRole: Record<string, readonly string[]> = {
  user: ['text', 'image', 'file'],
  assistant: ['text', 'file', 'reasoning', 'tool-call'],
  tool: ['tool-result'],
};

function decodePart(
  part: Record<string, unknown>,
  role: string,
  path: string,
  readOptions: OptionsReader,
): Part {
  if (!partTypesByRole[role]?.includes(part.type as string)) {
    throw new ConversionProblem(
      `${path}.type`,
      `a ${role} message cannot carry a ${JSON.stringify(part.type)} part`,
    );
  }
  const reader = elementReader(part, path, readOptions);
  const { slot, extras, string, optionalString } = reader;
  const data = (field: string) => {
    const converted = dataToString(part[field]);
    if (converted === undefined) {
      throw new ConversionProblem(`${path}.${field}`, 'must be a string, bytes, an ArrayBuffer or a URL');
    }
    if (converted.kind !== undefined) extras.data = converted.kind;
    return converted.data;
  };
  const done = (core: Record<string, unknown>): Part => reader.done(core) as unknown as Part;
  /** An image part, with the element's media type when it gives one. */
  const image = (content: string, withMediaType: boolean) =>
    done({ type: 'image', image: content, ...(withMediaType ? { mediaType: string('mediaType') } : {}) });

  switch (part.type) {
    case 'text':
      return done({ type: 'text', text: string('text') });
    case 'image':
      return image(data('image'), part.mediaType !== undefined);
    case 'file': {
      const converted = data('data');
      if (part.originalUrl !== undefined) extras.originalUrl = string('originalUrl');
      if (slot?.image === true) {
        // A core image sent at the provider level, where images are files.
        return image(converted, slot.mediaType !== false);
      }
      return done({
        type: 'file',
        data: converted,
        mediaType: string('mediaType'),
        ...optionalString('filename'),
      });
    }
    case 'reasoning':
      return done({
        type: 'reasoning',
        text: string('text'),
        ...(typeof slot?.signature === 'string' ? { signature: slot.signature } : {}),
        ...(typeof slot?.redactedData === 'string' ? { redactedData: slot.redactedData } : {}),
      });
    case 'tool-call': {
      if (part.providerExecuted !== undefined) extras.providerExecuted = part.providerExecuted as JSONValue;
      if (!isJSONValue(part.input)) throw new ConversionProblem(`${path}.input`, 'must be JSON');
      return done({
        type: 'tool-call',
        toolCallId: string('toolCallId'),
        toolName: string('toolName'),
        input: part.input,
      });
    }
    default: {
      let output: Pick<ToolResultPart, 'output' | 'isError'>;
      try {
        output = outputFromAiSdk(part.output, extras, slot, readOptions);
      } catch (error) {
        if (error instanceof ConversionProblem)
          throw new ConversionProblem(`${path}.${error.path}`, error.message);
        throw error;
      }
      return done({
        type: 'tool-result',
        toolCallId: string('toolCallId'),
        toolName: string('toolName'),
        ...output,
      });
    }
  }
}
