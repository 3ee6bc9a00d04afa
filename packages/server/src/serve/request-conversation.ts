import type { Message } from '@compaction/core';
import {
  type Conversation,
  checkMessageNesting,
  convert,
  FormatError,
  formats,
  readJsonConversation,
} from '@compaction/formats';
import { CliError, inputError } from '../errors/cli-error.js';
import { badRequest } from '../errors/http-error.js';

/**
 * The formats the server reads and answers in: every JSON format of `compaction compact`. A Claude Code
 * session is a log of JSON lines, not one JSON value, so it has no place in a JSON body.
 */
export const servedFormatNames = ['core', 'anthropic', 'openai-chat', 'openai-responses'] as const;

/** A format the server reads and answers in. */
export type ServedFormat = (typeof servedFormatNames)[number];

/** What a session keeps of the conversation it began with to answer in its shape: the request's other fields. */
export type ConversationShape = Omit<Conversation, 'messages' | 'format' | 'source'>;

/** Checks a request's `format` field. */
export function parseServedFormat(value: unknown): ServedFormat | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (servedFormatNames as readonly string[]).includes(value)) {
    return value as ServedFormat;
  }
  throw badRequest(
    'invalid-request',
    `format must be one of ${servedFormatNames.join(', ')}, got ${JSON.stringify(value)}`,
  );
}

/**
 * Reads a request's `conversation` as `compaction compact` reads a file: in the given format, or the one
 * detected by the same rules, through the same converters. Problems are 400s that name the field.
 */
export async function readRequestConversation(
  value: unknown,
  format: ServedFormat | undefined,
): Promise<Conversation & { format: ServedFormat }> {
  const conversation = await withField('conversation', async () => {
    const read = await readJsonConversation(value, format, 'set "format" to choose');
    checkMessageNesting(read.messages);
    return read;
  });
  return conversation as Conversation & { format: ServedFormat };
}

/**
 * Reads messages appended to a session: a list in the session's format (Anthropic or Chat messages,
 * Responses input items, core messages), converted on its own. A converter names a tool result after the
 * call it answers in the same list, so results answering calls of earlier appends are named here.
 */
export async function readAppendedMessages(
  value: unknown,
  format: ServedFormat,
  earlier: readonly Message[],
): Promise<Message[]> {
  if (!Array.isArray(value)) {
    throw badRequest(
      'invalid-messages',
      `messages must be a list of messages in the session's format (${format})`,
    );
  }
  const messages = await withField('messages', async () => {
    const read =
      format === 'openai-responses'
        ? await readResponsesItems(value, earlier)
        : (await formats[format].read(value)).messages;
    checkMessageNesting(read);
    return read;
  });
  return nameToolResults(messages, earlier);
}

/**
 * Responses items appended to a session, converted knowing the calls made before them: an output answering
 * an earlier append's call is that call's tool result (alone, the converter would keep it as a user message).
 */
async function readResponsesItems(items: unknown[], earlier: readonly Message[]): Promise<Message[]> {
  // Loaded on the first Responses append, typed by the package itself (a dependency of this one).
  const { convertResponsesItems } = await import('@compaction/provider-openai');
  const toolNames = new Map<string, string>();
  for (const message of earlier) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content)
      if (part.type === 'tool-call') toolNames.set(part.toolCallId, part.toolName);
  }
  return convert(() =>
    convertResponsesItems(items as Parameters<typeof convertResponsesItems>[0], toolNames),
  );
}

/** The conversation as JSON in its format, in its shape: what `compaction compact` writes for it. */
export async function conversationJson(
  messages: readonly Message[],
  format: ServedFormat,
  shape: ConversationShape | undefined,
): Promise<unknown> {
  const input = shape === undefined ? undefined : { ...shape, format, messages: [] };
  return JSON.parse(await formats[format].write(messages, input));
}

/** The shape of a conversation read from a request: its request fields and whether it was a bare list. */
export function shapeOf(conversation: Conversation): ConversationShape {
  return {
    ...(conversation.envelope === undefined ? {} : { envelope: conversation.envelope }),
    ...(conversation.list === undefined ? {} : { list: conversation.list }),
  };
}

/** Runs a read, naming the request field in its input errors ("conversation: not a valid ..."). */
async function withField<T>(field: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if ((CliError.isInstance(error) || FormatError.isInstance(error)) && error.reason === 'input') {
      throw inputError(`${field}: ${error.message}`, error);
    }
    throw error;
  }
}

function nameToolResults(messages: Message[], earlier: readonly Message[]): Message[] {
  const unnamed = (message: Message) =>
    message.role === 'tool' && message.content.some((part) => part.toolName === '');
  if (!messages.some(unnamed)) return messages;
  const names = new Map<string, string>();
  for (const message of earlier) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content)
      if (part.type === 'tool-call') names.set(part.toolCallId, part.toolName);
  }
  return messages.map((message) => {
    if (message.role !== 'tool' || !unnamed(message)) return message;
    return {
      ...message,
      content: message.content.map((part) => {
        const name = part.toolName === '' ? names.get(part.toolCallId) : undefined;
        return name === undefined ? part : { ...part, toolName: name };
      }),
    };
  });
}
