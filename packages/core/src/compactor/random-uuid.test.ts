import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { conversation } from '../__fixtures__/messages.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { createCompactor } from './compactor.js';
import { randomUUID } from './random-uuid.js';

const version4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// What a browser page on an insecure origin (plain HTTP, not loopback) has: no randomUUID, only getRandomValues.
const insecureContextCrypto = (bytes: Uint8Array) => ({
  getRandomValues: <Values extends Uint8Array>(values: Values): Values => {
    values.set(bytes.subarray(0, values.length));
    return values;
  },
});

describe('randomUUID', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('uses crypto.randomUUID where the runtime has it', () => {
    expect(randomUUID({ randomUUID: () => 'from-the-runtime' })).toBe('from-the-runtime');
    expect(randomUUID()).toMatch(version4);
  });

  it('builds an RFC 4122 version 4 UUID from getRandomValues where randomUUID is missing', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        const id = randomUUID(insecureContextCrypto(bytes));
        expect(id).toMatch(version4);
        // Every random bit but the six the layout fixes comes from the bytes given.
        const hex = id.replaceAll('-', '');
        const expected = Array.from(bytes, (byte, index) => {
          if (index === 6) return (byte & 0x0f) | 0x40;
          if (index === 8) return (byte & 0x3f) | 0x80;
          return byte;
        });
        expect(hex).toBe(expected.map((byte) => byte.toString(16).padStart(2, '0')).join(''));
      }),
    );
  });

  it('says what to do in a runtime with no Web Crypto at all', () => {
    expect(() => randomUUID({})).toThrow(InvalidOptionsError);
    expect(() => randomUUID({})).toThrow(
      /neither crypto\.randomUUID nor crypto\.getRandomValues; pass generateId/,
    );
  });

  it('lets the Compactor record a compaction in a page on an insecure origin', async () => {
    vi.stubGlobal('crypto', insecureContextCrypto(new Uint8Array(16).fill(0xff)));
    const history = conversation(40, 400);
    const tokens = createTokenCounter().estimate(history);
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget: { contextWindow: tokens, reservedOutputTokens: 0, safetyMargin: 0, trigger: 0.7, target: 0.3 },
    });
    const result = await compactor.prepare(history);
    expect(result.compacted).toBe(true);
    expect(result.event?.id).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});
