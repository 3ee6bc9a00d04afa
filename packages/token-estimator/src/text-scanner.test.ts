import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  classTable,
  letterPairTable,
  measuredCount,
  measureText,
  measureTextInJavaScript,
} from './text-features.js';
import { measureWithScanner } from './text-scanner.js';

/** Pieces that drive every branch of the scanners: case splits, rare letter pairs, digits, whitespace, non-ASCII. */
const piece = fc.constantFrom(
  'word',
  'xq',
  'QZ',
  'Zm9v',
  ' ',
  'getUserName',
  'HTTPServer',
  'internationalization',
  '1234567',
  'v2',
  ' 42',
  '3f2a9c1d8e7b6a5f',
  '3F2A9C1D8E7B6A5F',
  'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A',
  '\n',
  '\n    ',
  '\t',
  '  ',
  '\u00a0',
  '(',
  '});',
  '<|endoftext|>',
  '-thai',
  'café',
  'Привет',
  '上下文',
  '😀',
  '\ud800',
  '\udfff',
  '→',
  '\uffff',
  '\u0000',
);

/** Texts mixing the pieces above with arbitrary UTF-16 units. */
const longText = fc
  .tuple(fc.array(piece, { minLength: 20, maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 300 }))
  .map(([pieces, noise]) => {
    const text = pieces.join('');
    const at = text.length === 0 ? 0 : noise.length % text.length;
    return text.slice(0, at) + noise + text.slice(at);
  });

function bothScanners(text: string): { scanned: number[]; reference: number[] } {
  const into = new Float64Array(measuredCount);
  // Called directly, not through `measureText`, which leaves short texts to JavaScript.
  expect(measureWithScanner(text, into, classTable, letterPairTable)).toBe(true);
  return { scanned: [...into], reference: [...measureTextInJavaScript(text)] };
}

const itOnFullRun: (name: string, body: () => void, timeout: number) => void =
  process.env.COMPACTION_COMPATIBILITY_RUN === undefined ? it : () => {};

describe('the WebAssembly text scanner', () => {
  it('counts the same features as the JavaScript scanner on any text', () => {
    fc.assert(
      fc.property(longText, (text) => {
        const { scanned, reference } = bothScanners(text);
        expect(scanned).toEqual(reference);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (text) => {
        const { scanned, reference } = bothScanners(text);
        expect(scanned).toEqual(reference);
      }),
      { numRuns: 200 },
    );
  });

  it('grows its memory for long texts and keeps counting shorter ones after', () => {
    const long = 'const value = computeTheAnswer(42); // 3f2a9c1d8e7b6a5f\n'.repeat(20_000);
    const { scanned, reference } = bothScanners(long);
    expect(scanned).toEqual(reference);
    expect(scanned[0]).toBeGreaterThan(0);
    const after = bothScanners(
      'a shorter text after the long one, still long enough to be scanned. '.repeat(3),
    );
    expect(after.scanned).toEqual(after.reference);
  });

  it('is what measureText uses for long texts', () => {
    const text = 'A long enough text: getUserName(42), 上下文 and 😀.\n'.repeat(10);
    expect([...measureText(text)]).toEqual(bothScanners(text).scanned);
  });

  // Not on the Node 22 compatibility run (scripts/test-node-22.sh): whether the committed binary is the build of
  // its source does not depend on the Node version, and loading the compiler takes seconds.
  itOnFullRun(
    'is the build of its committed source',
    () => {
      const script = fileURLToPath(new URL('../scripts/build-scanners.js', import.meta.url));
      // Throws (with the script's message) when src/text-scanner-binary.ts is stale.
      const output = execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
      expect(output).toMatch(/up to date/);
      // Loading the compiler (Binaryen) takes a few seconds.
    },
    60_000,
  );

  describe('where it cannot run', () => {
    /** The package's type settings leave out the WebAssembly declarations; the runtime has them. */
    interface WebAssemblyLike {
      Memory: unknown;
      Instance: unknown;
      Module: unknown;
    }
    /** The namespace's members are not enumerable, so they are copied by name. */
    const pick = (api: WebAssemblyLike): WebAssemblyLike => ({
      Memory: api.Memory,
      Instance: api.Instance,
      Module: api.Module,
    });

    const text = 'const value = computeTheAnswer(42); // 3f2a9c1d8e7b6a5f\n'.repeat(10);
    const reference = [...measureTextInJavaScript(text)];

    afterEach(() => {
      vi.unstubAllGlobals();
      vi.resetModules();
    });

    /** A fresh copy of the modules, so the scanner is set up again under the stubbed globals. */
    async function freshModules() {
      vi.resetModules();
      const features = await import('./text-features.js');
      const scanner = await import('./text-scanner.js');
      return { features, scanner };
    }

    it('leaves texts to JavaScript on runtimes without Buffer', async () => {
      vi.stubGlobal('Buffer', undefined);
      const { features, scanner } = await freshModules();
      const into = new Float64Array(measuredCount);
      expect(scanner.measureWithScanner(text, into, features.classTable, features.letterPairTable)).toBe(
        false,
      );
      expect([...features.measureText(text)]).toEqual(reference);
    });

    it('leaves texts of more than 4 million characters to JavaScript', () => {
      const long = 'getUserName(42) '.repeat(270_000);
      const into = new Float64Array(measuredCount);
      expect(measureWithScanner(long, into, classTable, letterPairTable)).toBe(false);
      expect([...measureText(long)]).toEqual([...measureTextInJavaScript(long)]);
    });

    it('leaves texts to JavaScript when its memory cannot grow', async () => {
      const real = (globalThis as unknown as { WebAssembly: WebAssemblyLike }).WebAssembly;
      vi.stubGlobal('WebAssembly', {
        ...pick(real),
        Memory: class extends (real.Memory as new (descriptor: { initial: number }) => object) {
          grow(): number {
            throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
          }
        },
      });
      const { features, scanner } = await freshModules();
      const long = text.repeat(200);
      const into = new Float64Array(measuredCount);
      expect(scanner.measureWithScanner(long, into, features.classTable, features.letterPairTable)).toBe(
        false,
      );
      expect([...features.measureText(long)]).toEqual([...measureTextInJavaScript(long)]);
      // Texts that fit the memory as it is are still scanned.
      expect(scanner.measureWithScanner(text, into, features.classTable, features.letterPairTable)).toBe(
        true,
      );
      expect([...into]).toEqual(reference);
    });

    it('leaves texts to JavaScript when WebAssembly may not be compiled', async () => {
      const real = (globalThis as unknown as { WebAssembly: WebAssemblyLike }).WebAssembly;
      vi.stubGlobal('WebAssembly', {
        ...pick(real),
        Module: class {
          constructor() {
            throw new Error('Wasm code generation disallowed by embedder');
          }
        },
      });
      const { features, scanner } = await freshModules();
      const into = new Float64Array(measuredCount);
      expect(scanner.measureWithScanner(text, into, features.classTable, features.letterPairTable)).toBe(
        false,
      );
      expect([...features.measureText(text)]).toEqual(reference);
    });
  });
});
