import type { Message } from '@compaction/core';
import {
  type Conversation,
  type ConversationFormat,
  type FormatName,
  isRecord,
} from './conversation-format.js';
import { inputError } from './format-error.js';

/** A provider package's pair of converters for one request format. */
export interface RequestConverters {
  /** Core messages of the conversation fields of a request. */
  read(fields: Record<string, unknown>): Message[];
  /** The conversation fields of a request for core messages, in the order they are written. */
  write(messages: readonly Message[]): Record<string, unknown>;
  /** The field of a request that continues context the provider stores, if the format has such fields. */
  storedContext?(request: Record<string, unknown>): string | undefined;
}

/**
 * A provider's request format: where its conversation sits in a request, and the provider package's pair of
 * converters. The three provider formats differ only in these facts; reading and writing are shared.
 */
export interface RequestFormatSpecification {
  name: FormatName;
  /** The request field a bare list stands for (`messages`, or Responses' `input`). */
  listField: string;
  /** Every request field the converters read and write (the list field, Anthropic's `system`). */
  conversationFields: readonly string[];
  /** Whether a request's list field holds a conversation. */
  holdsConversation(value: unknown): boolean;
  /** What the input must be, for the error on anything else. */
  expected: string;
  /** Loads the provider package (on first use, so that formats that need none never load it) for its converters. */
  converters(): Promise<RequestConverters>;
  /** Whether a conversation converted from another format is written as a bare list. */
  bareListWhenConverted?: boolean;
}

/**
 * A format over a provider's request: a request is read into core messages with the rest of it kept as the
 * envelope, a bare list is read as the list field of a request, and both are written back in the shape they
 * came in.
 */
export function requestFormat(specification: RequestFormatSpecification): ConversationFormat {
  const { name, listField, conversationFields } = specification;
  return {
    name,
    async read(input): Promise<Conversation> {
      if (Array.isArray(input)) {
        const converters = await specification.converters();
        const messages = convert(() => converters.read({ [listField]: input }));
        return { format: name, messages, list: true };
      }
      if (!isRecord(input) || !specification.holdsConversation(input[listField])) {
        throw inputError(`not an ${specification.expected}`);
      }
      const converters = await specification.converters();
      const envelope = { ...input };
      const fields: Record<string, unknown> = {};
      for (const field of conversationFields) {
        if (input[field] !== undefined) fields[field] = input[field];
        delete envelope[field];
      }
      const messages = convert(() => converters.read(fields));
      const storedContext = converters.storedContext?.(envelope);
      return { format: name, messages, envelope, ...(storedContext === undefined ? {} : { storedContext }) };
    },
    async write(messages, input) {
      const fields = (await specification.converters()).write(messages);
      // A list has room for the list field only: a system prompt, say, makes the output a request.
      const fitsList = Object.entries(fields).every(
        ([field, value]) => field === listField || value === undefined,
      );
      const asList = input === undefined ? specification.bareListWhenConverted === true : input.list === true;
      const value = asList && fitsList ? fields[listField] : { ...input?.envelope, ...fields };
      return `${JSON.stringify(value, null, 2)}\n`;
    },
  };
}

/** Runs a converter, turning its typed error into one line about the input (a `FormatError` of reason `input`). */
export function convert<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw inputError(`the input does not convert: ${(error as Error).message}`, error);
  }
}
