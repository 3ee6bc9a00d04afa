/**
 * The converters' own keys in `metadata.openai` of messages and parts made from Responses items, next to
 * `fields` (the item's other fields): how the input was written, so it is written back the same way.
 */
export const openaiResponsesMarkers = {
  /** Message marker `input: 'string'` on the user message made from a string `input`. */
  stringInput: 'input',
  /** Message marker `content`: `parts` for an array content a string could have replaced. */
  itemContent: 'content',
  /** Message marker `role`: `developer` for developer messages. */
  itemRole: 'role',
  /**
   * Marker on the first text part of an assistant message item: `{ fields, content, keyOrder }`, the item's
   * own fields, the shape of its content and its key order (the part holds the item's first text).
   */
  item: 'item',
  /** Tool-call marker: the raw arguments string. */
  itemArguments: 'arguments',
  /** Marker `keyOrder`: the order the item's keys had, where it differs from the written one. */
  keyOrder: 'keyOrder',
  /**
   * Marker `sourceItem` on a tool call or result made from a tool item other than a function's (custom tool,
   * computer, shell, apply_patch, MCP approval...): the item itself, written back as it was unless a strategy
   * changed what the part shows.
   */
  sourceItem: 'sourceItem',
} as const;
