import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type CompactionMcpServerSettings, createCompactionMcpServer } from '../compaction-mcp-server.js';

/** An MCP client connected in memory to a compaction MCP server over `settings`. */
export async function connectClient(settings: CompactionMcpServerSettings): Promise<Client> {
  const server = createCompactionMcpServer(settings);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** One tool call's text and whether it was an error. */
export async function callTool(
  client: Client,
  name: string,
  input: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: input })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { text, isError: result.isError === true };
}
