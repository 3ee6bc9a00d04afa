import type { Message } from '@compaction/core';

/** One message of a mini-swe-agent trajectory. */
export interface MiniSweAgentMessage {
  role: string;
  content: string;
  /** Recorded alongside: the model's raw response, with its `created` time. */
  extra?: unknown;
}

const bashBlock = /```bash\s*\n([\s\S]*?)```/;
const returnCode = /<returncode>(-?\d+)<\/returncode>/;

/**
 * Reads a mini-swe-agent trajectory into core messages: the fenced bash block of an assistant message
 * becomes a `bash` tool call, and the user message that follows it (`<returncode>N</returncode><output>…`)
 * becomes its result, an error when the return code is not 0.
 */
export function miniSweAgentToMessages(trajectory: readonly MiniSweAgentMessage[]): Message[] {
  const messages: Message[] = [];
  let pendingCall: string | undefined;
  trajectory.forEach((entry, index) => {
    if (entry.role === 'system') {
      messages.push({ role: 'system', content: [{ type: 'text', text: entry.content }] });
    } else if (entry.role === 'assistant') {
      const command = bashBlock.exec(entry.content)?.[1]?.trim();
      pendingCall = command === undefined ? undefined : `mini-${index}`;
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: entry.content },
          ...(pendingCall === undefined || command === undefined
            ? []
            : [
                { type: 'tool-call' as const, toolCallId: pendingCall, toolName: 'bash', input: { command } },
              ]),
        ],
      });
    } else if (pendingCall !== undefined) {
      const code = returnCode.exec(entry.content)?.[1];
      messages.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: pendingCall,
            toolName: 'bash',
            output: entry.content,
            ...(code !== undefined && code !== '0' ? { isError: true } : {}),
          },
        ],
      });
      pendingCall = undefined;
    } else {
      messages.push({ role: 'user', content: [{ type: 'text', text: entry.content }] });
    }
  });
  return messages;
}
