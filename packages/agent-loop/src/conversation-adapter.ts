import type { ContextOverflow, JSONObject, Message } from '@compaction/core';
import type { IsNativeCompactionPart } from './native-compaction-start.js';

/**
 * The types one API's conversation works with. An {@link AgentConversation} is generic over one such record
 * rather than over ten separate type parameters.
 */
export interface AgentConversationTypes {
  /** One entry of the history in the SDK's shape: a message (Messages, Chat Completions), an input item (Responses). */
  item: object;
  /** What every request carries besides the conversation: model, output limit, tools... */
  request: object;
  /** The request body as the SDK receives it. */
  body: unknown;
  /** The SDK's answer to one request. */
  response: unknown;
  /** A tool call of the model, as the SDK shapes it. */
  toolCall: unknown;
  /** A tool's answer to one call, as `addToolResults` takes it. */
  toolResult: unknown;
  /** What a tool runner returns. */
  toolOutput: unknown;
  /** What a user turn may be given as. */
  userInput: unknown;
  /** The working context in the SDK's shape. */
  context: unknown;
  /** `number` for APIs that always report usage. */
  inputTokens: number | undefined;
}

/** What one model call returned: the SDK's answer, the items it adds to the history and the input tokens reported. */
export interface AdapterExchange<Types extends AgentConversationTypes> {
  response: Types['response'];
  /** The items the answer adds to the history. */
  items: Types['item'][];
  /** Input tokens the API reported (cached ones included), when it reported usage. */
  inputTokens: Types['inputTokens'];
}

/** The calls a group of items answers, and whether the group closes the turn (a user turn follows the calls). */
export interface ItemAnswers {
  /** Ids of the tool calls the items answer, in order. */
  callIds: string[];
  /** True when the items hold more than tool results: every pending call must then be answered by them. */
  closesTurn: boolean;
}

/** How one API names tool calls and their results in the messages of an `InvalidMessagesError`. */
export interface ConversationVocabulary {
  /** What a call is called: `tool call`, `function call`. */
  call: string;
  /** What answers a call: `result`, `output`. */
  result: string;
  /** The issue path of pending calls: `content`, `tool_calls`, `input`. */
  callsPath: string;
  /** The issue path of a result's call id: `toolUseId`, `toolCallId`, `callId`. */
  answerPath: string;
}

/**
 * What one API supplies to an {@link AgentConversation}: how its SDK shapes are converted, sent and checked.
 * The conversation owns the control flow; an adapter never keeps the history itself. An adapter may keep
 * conversion state (such as the names of the calls seen so far), so each conversation creates its own.
 */
export interface ConversationAdapter<Types extends AgentConversationTypes> {
  /** Names used in the messages of the errors the conversation throws. */
  vocabulary: ConversationVocabulary;
  /** Recognises the API's "too long" refusals. */
  parseContextOverflow: (error: unknown) => ContextOverflow | undefined;
  /** Maps an SDK failure to a typed error; for a refusal, a `ContextOverflowError`. */
  toCompactionError: (error: unknown) => Error;
  /**
   * Recognises a part holding the API's own compaction (a compaction block or item); the working context then
   * starts from the latest one, as the API documents. Omitted for APIs without one.
   */
  isNativeCompactionPart?: IsNativeCompactionPart;
  /** Converts items appended together to core messages; `previous` is the history before them. */
  toCore(items: readonly Types['item'][], previous: readonly Types['item'][]): Message[];
  /** The items a user input stands for; throws `InvalidMessagesError` for input that cannot be added. */
  userItems(input: Types['userInput']): Types['item'][];
  /** The items that carry tool results. */
  resultItems(results: readonly Types['toolResult'][]): Types['item'][];
  /** Which calls a group of items answers. */
  answersOf(items: readonly Types['item'][]): ItemAnswers;
  /** The calls of the history that have no result yet. */
  pendingToolCalls(history: readonly Types['item'][]): Types['toolCall'][];
  /** The id of a call, as its results name it. */
  callId(call: Types['toolCall']): string;
  /** The result of a call whose tool returned `output`. */
  resultOf(call: Types['toolCall'], output: Types['toolOutput']): Types['toolResult'];
  /** The result of a call whose tool threw, with the error's message. */
  failureOf(call: Types['toolCall'], message: string): Types['toolResult'];
  /** The working context in the SDK's shape. */
  context(messages: Message[]): Types['context'];
  /** Builds the request body for a working context, with the fields that replace the defaults for one call. */
  body(messages: Message[], request: Partial<Types['request']> | undefined): Types['body'];
  /** Sends a body with the SDK; throws what the SDK throws. */
  send(body: Types['body'], signal: AbortSignal | undefined): Promise<AdapterExchange<Types>>;
  /**
   * How the API offers the conversation's own tools and reads their calls: `recall`, for conversations whose
   * compactor archives, and `compact`, with the `compactTool` setting.
   */
  recall?: RecallWire<Types>;
  /** How the API makes the note turn before a compaction (the `beforeCompaction` setting). */
  note?: NoteWire<Types>;
}

/** A tool the conversation offers and answers itself (`recall`, `compact`), as each API's wire gets it. */
export interface LoopToolDefinition {
  name: string;
  description: string;
  inputSchema: JSONObject;
}

/** The recall tool's definition, as each API's wire gets it. */
export interface RecallDefinition extends LoopToolDefinition {
  name: 'recall';
}

/** How one API offers the conversation's own tools to the model and reads the model's calls of them. */
export interface RecallWire<Types extends AgentConversationTypes> {
  /** A tool of the conversation as one entry of the request's `tools`, in the API's shape. */
  tool(definition: LoopToolDefinition): unknown;
  /** The name of one entry of a request's `tools`; undefined for entries without one. */
  toolName(tool: unknown): string | undefined;
  /** The tool a call calls and its arguments; arguments sent as text that is not JSON are that text. */
  call(call: Types['toolCall']): { name: string; input: unknown };
}

/** How one API makes the note turn before a compaction: one model call whose answer is text. */
export interface NoteWire<Types extends AgentConversationTypes> {
  /**
   * The body of the note turn, from the body a request of the conversation would have: `maximumTokens` as the
   * API's output limit (what reasoning needs besides), and no tool calls when it has tools.
   */
  body(body: Types['body'], maximumTokens: number): Types['body'];
  /** The text of an answer (its text parts joined). */
  text(response: Types['response']): string;
}
