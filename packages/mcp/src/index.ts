export type { CompactTarget } from './compact-target.js';
export { type CompactionMcpServerSettings, createCompactionMcpServer } from './compaction-mcp-server.js';
export {
  type CompactionMcpListener,
  type CompactionMcpListenSettings,
  listenCompactionMcp,
} from './listen-compaction-mcp.js';
export {
  type CompactionMcpHttpSettings,
  type CompactionMcpRequestHandler,
  createCompactionMcpRequestHandler,
  mcpPath,
} from './mcp-request-handler.js';
export { defaultSearchLimit, maximumSearchLimit } from './search-mcp-tool.js';
export { type StdioServingSettings, serveCompactionMcpOverStdio } from './serve-over-stdio.js';
