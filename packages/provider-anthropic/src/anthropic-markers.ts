/**
 * The converters' own keys in `metadata.anthropic`, next to the fields of the block they came from: what the
 * core shape cannot say about how a request was written, so that it is written back the same way.
 */
export const anthropicMarkers = {
  /** Message marker `content: 'string'`: the message (or `system`) had a string content, not blocks. */
  stringContent: 'content',
  /** Message marker `newTurn: true`: the message started a new Anthropic message though the one before had its role. */
  newTurn: 'newTurn',
  /** Message marker `role: 'system'`: a system message that stood in `messages`, not in the `system` parameter. */
  systemRole: 'role',
  /** Message marker `fields`: fields of the Anthropic message other than `role` and `content`. */
  messageFields: 'fields',
  /** Marker `keyOrder`: the order the keys of the message (or `system`) had, where it differs from the written one. */
  keyOrder: 'keyOrder',
  /** Tool-result marker `noContent: true`: the `tool_result` block had no `content` field. */
  noContent: 'noContent',
  /**
   * Tool-call marker `input`: `absent` when the `tool_use` block had no `input` field, `kept` when its input
   * was not a JSON object (the API asks for one; a request that came that way is written back that way).
   */
  input: 'input',
} as const;
