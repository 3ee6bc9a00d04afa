import { defaultSummarySections } from '@compaction/strategy-summarization';
import { type RecordedRequest, startTestServer, type TestServer } from '@compaction/testing/loopback-server';

/** A summary with every section the default template asks for, so the summarizer accepts it. */
export const acceptedSummary = defaultSummarySections
  .map((section) => `## ${section}\n- ${section} of the conversation so far.`)
  .join('\n\n');

/**
 * A loopback stand-in for the Anthropic Messages API: `POST /v1/messages` answers {@link acceptedSummary}
 * after `delayMs(index)` milliseconds (the index counts summary requests from 0), and every request is
 * recorded, so a test sees what the server sent, where and with which key.
 */
export async function startAnthropicApi(delayMs: (index: number) => number = () => 0): Promise<TestServer> {
  const api = await startTestServer();
  let index = 0;
  api.handle('/v1/messages', (request: RecordedRequest) => {
    const body = request.body as { model?: string };
    return {
      delayMs: delayMs(index++),
      body: {
        id: `msg_${index}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [{ type: 'text', text: acceptedSummary }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 1000, output_tokens: 200 },
      },
    };
  });
  return api;
}
