import type { Message, Metadata, Part, TextPart } from '@compaction/core';
import { stringToData } from './data-content.js';
import { metadataBeforeJoinMark } from './join-referenced-turns.js';
import {
  isRecord,
  type JSONRecord,
  setDefined,
  splitMetadata,
  writeProviderOptions,
} from './metadata-slot.js';
import { outputToAiSdk } from './tool-result-output.js';

/**
 * Which AI SDK shape to produce: `model` for `ModelMessage` (what `generateText` and `prepareStep` take),
 * `prompt` for the provider-level prompt a language-model middleware sees (no string content, no image parts).
 */
export type Flavor = 'model' | 'prompt';

type Element = Record<string, unknown>;

/** Encodes one core message as an AI SDK message; the inverse of `decodeMessage`. */
export function encodeMessage(message: Message, flavor: Flavor): Element {
  const { extras, own } = splitMetadata(metadataBeforeJoinMark(message));
  const slot: Element = {};
  setDefined(slot, 'id', message.id);
  setDefined(slot, 'metadata', withoutJoinMark(own));
  let content: unknown;

  if (message.role === 'system') {
    const [first] = message.content;
    const simple = message.content.length === 1 && first?.metadata === undefined;
    // Core system messages may have several parts; the AI SDK's is one string, so the parts ride along.
    if (!simple) slot.content = message.content as unknown as JSONRecord[];
    content = message.content.map((part) => part.text).join('');
  } else {
    const parts: unknown[] = message.content.map((part: Part) => encodePart(part, flavor));
    const detached = Array.isArray(extras.detached) ? extras.detached : [];
    for (const entry of detached) {
      if (isRecord(entry) && typeof entry.index === 'number') {
        parts.splice(Math.min(entry.index, parts.length), 0, entry.part);
      }
    }
    content = parts;
    const only = parts[0];
    if (
      flavor === 'model' &&
      extras.content === 'string' &&
      parts.length === 1 &&
      isRecord(only) &&
      only.type === 'text' &&
      only.providerOptions === undefined
    ) {
      content = only.text;
    }
  }

  const element: Element = { role: message.role, content };
  setDefined(element, 'providerOptions', writeProviderOptions(extras.providerOptions, slot));
  return element;
}

function encodePart(part: Part, flavor: Flavor): Element {
  const { extras, own } = splitMetadata(part.metadata);
  const slot: Element = {};
  setDefined(slot, 'metadata', own);
  const finish = (element: Element): Element => {
    setDefined(element, 'providerOptions', writeProviderOptions(extras.providerOptions, slot));
    return element;
  };
  switch (part.type) {
    case 'text':
      return finish({ type: 'text', text: (part as TextPart).text });
    case 'image': {
      const image = stringToData(part.image, extras.data);
      if (flavor === 'model') {
        const element: Element = { type: 'image', image };
        setDefined(element, 'mediaType', part.mediaType);
        return finish(element);
      }
      slot.image = true;
      if (part.mediaType === undefined) slot.mediaType = false;
      const element: Element = { type: 'file', data: image, mediaType: part.mediaType ?? 'image/*' };
      setDefined(element, 'originalUrl', extras.originalUrl);
      return finish(element);
    }
    case 'file': {
      const element: Element = { type: 'file', data: stringToData(part.data, extras.data) };
      setDefined(element, 'filename', part.filename);
      if (flavor === 'prompt') setDefined(element, 'originalUrl', extras.originalUrl);
      element.mediaType = part.mediaType;
      return finish(element);
    }
    case 'reasoning':
      setDefined(slot, 'signature', part.signature);
      setDefined(slot, 'redactedData', part.redactedData);
      return finish({ type: 'reasoning', text: part.text });
    case 'tool-call': {
      const element: Element = {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
      };
      setDefined(element, 'providerExecuted', extras.providerExecuted);
      return finish(element);
    }
    case 'tool-result':
      return finish({
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: outputToAiSdk(part, extras, slot),
      });
  }
}

/**
 * Core metadata without the mark that a message joins the turn before it: decoding derives it again from
 * the messages themselves, and Compaction's own marks are not written for the provider's sake.
 */
function withoutJoinMark(own: Metadata | undefined): Metadata | undefined {
  const compaction = own?.compaction;
  if (!isRecord(compaction) || compaction.joinsPrevious === undefined) return own;
  const { joinsPrevious: _mark, ...marks } = compaction;
  const { compaction: _compaction, ...rest } = own!;
  if (Object.keys(marks).length > 0) return { ...rest, compaction: marks as Metadata };
  return Object.keys(rest).length > 0 ? rest : undefined;
}
