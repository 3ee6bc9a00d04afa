/**
 * Where the `compact` tool sends its request: a running `compaction proxy`, which compacts the conversation's
 * next request through it, or `compaction serve`, which compacts a session at once. The MCP server holds no
 * agent's history: only the process that sends it to the model can compact it.
 */
export interface CompactTarget {
  kind: 'proxy' | 'serve';
  /** The service's base URL, such as `http://127.0.0.1:4320`. */
  url: string;
  /** The bearer token `compaction serve` requires, when it requires one. */
  token?: string;
}

/** What the tool tells the model when no proxy or serve is configured. */
export const noCompactTargetText =
  'compact: this MCP server has no proxy or serve to ask. The conversation lives in the process that sends ' +
  'it to the model: start the MCP server with --proxy <url of the compaction proxy the agent goes through> ' +
  '(compaction mcp --proxy http://127.0.0.1:4320), or --serve <url of compaction serve> for a serve session ' +
  '(the compactTarget setting of createCompactionMcpServer).';

/** The target's URL checked: http or https, with no query or fragment; throws a `TypeError` otherwise. */
export function checkedTargetUrl(target: CompactTarget): URL {
  const url = new URL(target.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`must be an http:// or https:// URL, got "${target.url}"`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`must be the service's base URL, without a query or fragment, got "${target.url}"`);
  }
  return url;
}
