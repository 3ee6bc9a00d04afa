import type { JSONObject, JSONValue } from '../json.js';

/**
 * Free-form data on a message or part: converters keep provider-specific fields here (such as Anthropic's
 * `cache_control`) so conversions are lossless; Compaction's own marks are under `compaction`
 * ({@link CompactionMetadata}).
 */
export type Metadata = JSONObject;

/** Plain text. */
export interface TextPart {
  type: 'text';
  text: string;
  metadata?: Metadata;
}

/** An image, as base64 data or a URL. */
export interface ImagePart {
  type: 'image';
  /** Base64-encoded bytes, or a URL (`https:` or `data:`). */
  image: string;
  /** IANA media type, such as `image/png`; needed when `image` is base64 data. */
  mediaType?: string;
  metadata?: Metadata;
}

/** A file (PDF, text document, audio...), as base64 data, plain text or a URL. */
export interface FilePart {
  type: 'file';
  /** Base64-encoded bytes, plain text (for `text/*` media types) or a URL. */
  data: string;
  /** IANA media type, such as `application/pdf`. */
  mediaType: string;
  filename?: string;
  metadata?: Metadata;
}

/** Model reasoning. The signature is opaque and must be sent back byte for byte. */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  /** Lets the provider verify the reasoning when it is sent back. */
  signature?: string;
  /** Encrypted or redacted reasoning the provider returned instead of readable text. */
  redactedData?: string;
  metadata?: Metadata;
}

/** A request by the model to call a tool. */
export interface ToolCallPart {
  type: 'tool-call';
  /** Identifier that the matching {@link ToolResultPart} repeats. */
  toolCallId: string;
  toolName: string;
  /** The tool's input as parsed JSON. */
  input: JSONValue;
  metadata?: Metadata;
}

/** Content a tool result may carry besides plain text. */
export type ToolResultContentPart = TextPart | ImagePart | FilePart;

/** The result of a tool call. */
export interface ToolResultPart {
  type: 'tool-result';
  /** The `toolCallId` of the call this result answers. */
  toolCallId: string;
  /** The tool's name, repeated for convenience; the call is the source of truth. */
  toolName: string;
  /** The tool's output: plain text, or a list of parts. */
  output: string | ToolResultContentPart[];
  /** True when the tool reported a failure. */
  isError?: boolean;
  metadata?: Metadata;
}

/** Instructions for the model. */
export interface SystemMessage {
  role: 'system';
  content: TextPart[];
  id?: string;
  metadata?: Metadata;
}

/** What the user (or the application on the user's behalf) said. */
export interface UserMessage {
  role: 'user';
  content: Array<TextPart | ImagePart | FilePart>;
  id?: string;
  metadata?: Metadata;
}

/** What the model answered: text, reasoning and tool calls. */
export interface AssistantMessage {
  role: 'assistant';
  content: Array<TextPart | ReasoningPart | ToolCallPart | FilePart>;
  id?: string;
  metadata?: Metadata;
}

/** Results of the tool calls made in the assistant message before it. */
export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
  id?: string;
  metadata?: Metadata;
}

/** One message of a conversation. Plain JSON: no classes, so it serializes and compares easily. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a message. */
export type Role = Message['role'];

/** Any part of any message. */
export type Part = Message['content'][number];
