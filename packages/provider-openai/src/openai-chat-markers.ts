/**
 * The converters' own keys in `metadata.openai` of Chat Completions messages and parts, next to `fields`
 * (the message's or part's other fields): how the message was written, so it is written back the same way.
 */
export const openaiChatMarkers = {
  /** Message marker `content`: `parts` when the content was an array that a string could have replaced; `absent`. */
  content: 'content',
  /** Message marker `role`: `developer` for developer messages (core calls them system). */
  role: 'role',
  /** Message marker `toolCalls`: `empty` for an explicit empty `tool_calls` array. */
  toolCalls: 'toolCalls',
  /** Tool-call marker `arguments`: the raw arguments string, when parsing it would not give it back. */
  arguments: 'arguments',
  /** Tool-call marker `call`: a tool call that is not a function call, kept verbatim. */
  verbatimCall: 'call',
  /**
   * Marker `legacy: true` on a tool call that was an assistant's `function_call` and on a result that was a
   * `function` message: the deprecated function calling, which pairs a call and its result by position.
   */
  legacyFunction: 'legacy',
  /** Message marker `keyOrder`: the order the message's keys had, where it differs from the written one. */
  keyOrder: 'keyOrder',
} as const;
