import type { Message } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messagesJsonBytes } from './messages-json.js';

const messageLike = fc.dictionary(fc.string(), fc.jsonValue()).map((value) => value as unknown as Message);

describe('messagesJsonBytes', () => {
  it('is JSON.stringify of the list in UTF-8, in a buffer of its own, however often a message is sent', () => {
    fc.assert(
      fc.property(
        fc.array(messageLike, { maxLength: 8 }),
        fc.array(messageLike, { maxLength: 4 }),
        (first, added) => {
          // The second list keeps the first one's messages (as a session's next answer does) and adds some.
          for (const messages of [first, [...first, ...added], [...added, ...first]]) {
            const bytes = messagesJsonBytes(messages);
            expect(Buffer.from(bytes).toString('utf8')).toBe(JSON.stringify(messages));
            expect(bytes.byteOffset).toBe(0);
            expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
          }
        },
      ),
    );
  });
});
