import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';

/** A scripted Anthropic Messages API on loopback: answers every request with one short text, and records it. */
export async function startScriptedProvider(): Promise<TestServer> {
  const provider = await startTestServer();
  provider.handle('/v1/messages', () => ({
    body: {
      id: 'msg_scripted',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 0, output_tokens: 2 },
    },
  }));
  return provider;
}
