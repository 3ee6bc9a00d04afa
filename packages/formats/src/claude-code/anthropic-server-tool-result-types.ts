/**
 * The Anthropic content block types that answer a `server_tool_use` block with the same id. Claude Code logs
 * them in assistant lines; Compaction has no core part for them, so they are carried as they are.
 */
export const anthropicServerToolResultTypes: ReadonlySet<string> = new Set([
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'advisor_tool_result',
]);
