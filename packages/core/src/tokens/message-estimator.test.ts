import { anthropicPdfPageTokens } from '@compaction/token-estimator';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { createMessageEstimator, defaultMessageOverhead } from './message-estimator.js';

describe('createMessageEstimator', () => {
  const length = { name: 'length', countText: (text: string) => text.length };
  const estimator = createMessageEstimator(length);

  it('counts tool names and JSON inputs, tool outputs and overheads', () => {
    const tokens = estimator.countMessage({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'bash', input: { command: 'ls' } }],
    });
    expect(tokens).toBe(
      defaultMessageOverhead.message + defaultMessageOverhead.toolCall + 4 + '{"command":"ls"}'.length,
    );
    const result = estimator.countMessage({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 'bash', output: [{ type: 'text', text: 'abc' }] },
      ],
    });
    expect(result).toBe(
      defaultMessageOverhead.message + defaultMessageOverhead.toolResult + defaultMessageOverhead.part + 3,
    );
  });

  it('prices an image by the size in its header, with the rule of the provider it is told', () => {
    // A PNG signature and IHDR chunk of a 1000 x 1000 image: all the estimator reads.
    const header = Buffer.alloc(33);
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(header);
    header.writeUInt32BE(1000, 16);
    header.writeUInt32BE(1000, 20);
    const image = `data:image/png;base64,${header.toString('base64')}`;
    const message: Message = { role: 'user', content: [{ type: 'image', image }] };
    const anthropic = createMessageEstimator({
      ...length,
      media: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    });
    const openai = createMessageEstimator({ ...length, media: { provider: 'openai', model: 'gpt-4o' } });
    const base = defaultMessageOverhead.message + defaultMessageOverhead.part;
    expect(anthropic.countMessage(message)).toBe(base + Math.ceil((1000 * 1000) / 750));
    expect(openai.countMessage(message)).toBe(base + 85 + 4 * 170);
    // Told nothing, the estimator takes the larger rule.
    expect(estimator.countMessage(message)).toBeGreaterThanOrEqual(anthropic.countMessage(message));
    const flat = createMessageEstimator({ ...length, overhead: { image: 300 } });
    expect(flat.countMessage(message)).toBe(base + 300);
  });

  it('prices a 750 KB PDF of three pages by its pages, no longer as text', () => {
    const pages = [3, 4, 5].map((id) => `${id} 0 obj << /Type /Page /Parent 2 0 R >> endobj\n`).join('');
    const head = `%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >> endobj\n${pages}6 0 obj << /Length 768000 >>\nstream\n`;
    const pdf = Buffer.concat([
      Buffer.from(head, 'latin1'),
      Buffer.alloc(768_000, 0xa7),
      Buffer.from('\nendstream\nendobj\n%%EOF'),
    ]);
    const data = pdf.toString('base64');
    const message: Message = {
      role: 'user',
      content: [{ type: 'file', data, mediaType: 'application/pdf' }],
    };
    const anthropic = createMessageEstimator({ ...length, media: { provider: 'anthropic' } });
    const tokens = anthropic.countMessage(message);
    expect(tokens).toBe(
      defaultMessageOverhead.message + defaultMessageOverhead.part + 3 * anthropicPdfPageTokens,
    );
    expect(tokens).toBeLessThan(data.length / 50);
  });

  it('treats special-token strings as ordinary text', () => {
    expect(estimator.countText('<|endoftext|>')).toBe('<|endoftext|>'.length);
  });
});
