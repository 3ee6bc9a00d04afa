import fc from 'fast-check';
import cl100kBaseRanks from 'js-tiktoken/ranks/cl100k_base';
import o200kBaseRanks from 'js-tiktoken/ranks/o200k_base';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { longScriptRun, mixedScriptText } from '../__fixtures__/mixed-script-text.js';
import { InvalidEstimatorSettingsError } from '../errors/invalid-estimator-settings-error.js';
import { AsciiPieceCounter } from './ascii-piece-counter.js';
import { createVocabulary, type EncodingName, loadVocabulary } from './vocabulary.js';

const encodingNames: EncodingName[] = ['o200k_base', 'cl100k_base'];
const encoders: Tiktoken[] = [];
const publishedRanks = { o200k_base: o200kBaseRanks, cl100k_base: cl100kBaseRanks };

afterAll(() => {
  for (const encoder of encoders) encoder.free();
});

/**
 * The text's code points in hex, for failure messages: fast-check's report prints U+0085, U+FEFF or a lone
 * surrogate as themselves, which look like nothing or like a space.
 */
function codePointsOf(text: string): string {
  return [...text].map((character) => character.codePointAt(0)!.toString(16)).join(' ');
}

/** Code points from a fixed walk over the Han block: many distinct characters, no punctuation. */
function hanRun(length: number): string {
  const points: number[] = [];
  for (let index = 0; index < length; index++) points.push(0x4e00 + ((index * 7919) % 20_000));
  return String.fromCodePoint(...points);
}

const fixedTexts = [
  '',
  'hello world',
  ' hello',
  "The quick brown fox jumps over the lazy dog.\r\nIt's 3:45pm; we'll see.",
  'Привет, мир! Это тестовый текст на русском языке.',
  '这是一个用于测试的中文文本，其中包含许多汉字和标点符号。',
  '한국어 텍스트입니다. 토크나이저의 속도와 정확도를 측정해야 합니다.',
  'Latvijas Republikas Saeima ir pieņēmusi likumu',
  'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3\n3e25960a79dbc69b674cd4ec67a72c62',
  '<|endoftext|>',
  'before <|endoftext|> after <|endofprompt|>',
  '👍🏽 🇺🇸 👨‍👩‍👧‍👦 ❤️',
  'lone \ud800 high, lone \udfff low, pair 😀, reversed \udc00\ud800',
  '\r\n\r\n\t  \n   x  \u00a0\u3000\u0085\ufeff',
  // tiktoken's whitespace is Unicode's White_Space: U+0085 is whitespace, U+FEFF is not.
  'a \u0085b \u0085 0 \ufeff\ufeff x\ufeff',
  // tiktoken's contractions are case-insensitive, and a case-insensitive s matches ſ.
  "IT'ſ it'S it's 'ſ",
  'a'.repeat(20_000),
  ' '.repeat(5000),
  '=-'.repeat(3000),
  hanRun(10_000),
];

it('refuses an encoding it has no vocabulary for with a typed error', () => {
  let thrown: unknown;
  try {
    loadVocabulary('p50k_base' as EncodingName);
  } catch (error) {
    thrown = error;
  }
  expect(InvalidEstimatorSettingsError.isInstance(thrown)).toBe(true);
  expect((thrown as InvalidEstimatorSettingsError).issues[0]?.path).toBe('encoding');
  expect(() => loadVocabulary('toString' as EncodingName)).toThrow(InvalidEstimatorSettingsError);
});

it('counts ASCII in WebAssembly under Node', () => {
  // Otherwise the tests of the WebAssembly path below would run the JavaScript one twice.
  for (const encodingName of encodingNames) expect(AsciiPieceCounter.create(encodingName)).not.toBeNull();
});

it('is loaded once per encoding and kept', () => {
  for (const encodingName of encodingNames) {
    expect(loadVocabulary(encodingName)).toBe(loadVocabulary(encodingName));
    expect(loadVocabulary(encodingName).encoding).toBe(encodingName);
  }
});

// Every test runs on both paths of ASCII text: the WebAssembly counter (what Node runs), and the JavaScript scanner
// that runs where WebAssembly or a native string copy is not available.
const paths = encodingNames.flatMap((encodingName) =>
  [true, false].map((webAssembly) => ({
    encodingName,
    webAssembly,
    path: webAssembly ? 'WebAssembly' : 'JavaScript',
  })),
);

describe.each(paths)('the $encodingName vocabulary, ASCII in $path', ({ encodingName, webAssembly }) => {
  const encoder = get_encoding(encodingName);
  encoders.push(encoder);
  const vocabulary = createVocabulary(encodingName, { webAssembly });
  const exactCount = (text: string): number => encoder.encode_ordinary(text).length;
  const expectExact = (text: string): void => {
    expect(vocabulary.countText(text), codePointsOf(text)).toBe(exactCount(text));
  };

  it('counts each short piece of control characters and letters as tiktoken does, whatever it follows', () => {
    // Pieces padded with zero bytes must not be taken for each other: "\x01\0" once hashed as "\0\0\0".
    const fresh = createVocabulary(encodingName, { webAssembly });
    const alphabet = ['\0', '\x01', '\x02', 'a'];
    let pieces = [''];
    for (let length = 1; length <= 4; length++) {
      pieces = pieces.flatMap((piece) => alphabet.map((character) => piece + character));
      for (const piece of pieces) expect(fresh.countText(piece), codePointsOf(piece)).toBe(exactCount(piece));
    }
  });

  it('counts a text of thousands of pieces never seen, more than one scan hands back, as tiktoken does', () => {
    // A new vocabulary remembers no piece: each of these words is counted by merging, 4,096 of them a scan.
    const fresh = createVocabulary(encodingName, { webAssembly });
    const words = Array.from({ length: 12_000 }, (_, index) => `w${(index * 2_654_435_761) % 1_000_003}q`);
    const text = words.join(' ');
    expect(fresh.countText(text)).toBe(exactCount(text));
    expect(fresh.countText(`${text}\n${text}`)).toBe(exactCount(`${text}\n${text}`));
  });

  it.each(
    fixedTexts.map((text) => ({ text, label: JSON.stringify(text.slice(0, 30)), length: text.length })),
  )('counts $label ($length characters) as tiktoken does', ({ text }) => {
    expectExact(text);
  });

  it('counts text mixing scripts, data, emoji, whitespace and oddities exactly as tiktoken does', () => {
    fc.assert(
      fc.property(mixedScriptText, (text) => {
        expectExact(text);
      }),
      { numRuns: 300 },
    );
  });

  it('counts ASCII text, found by its own scanner and remembered piece by piece, exactly as tiktoken does', () => {
    // One vocabulary counts every text of the run, so later texts find the pieces of earlier ones remembered.
    const asciiCharacter = fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code));
    const fragment = fc.oneof(
      fc.lorem({ maxCount: 3 }),
      fc.constantFrom(
        '  ',
        '\n',
        '\t',
        '\r\n',
        "'s",
        "DON'T",
        'HTTPServer',
        'getUserName',
        '123456',
        '});\n',
      ),
      fc.string({ unit: asciiCharacter, maxLength: 6 }),
    );
    const asciiText = fc.oneof(
      fc.string({ unit: asciiCharacter, maxLength: 400 }),
      fc.array(fragment, { maxLength: 80 }).map((fragments) => fragments.join('')),
    );
    fc.assert(
      fc.property(asciiText, (text) => {
        expectExact(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('counts ASCII around characters outside ASCII exactly as tiktoken does, wherever the text is cut', () => {
    // The stretches that hold a character outside ASCII are cut by the pattern, the rest by the ASCII scanner: every
    // kind of character after a line feed (blanks, slashes, punctuation, letters, digits, other scripts), before
    // and after spaces, and before line breaks is drawn.
    const fragment = fc.constantFrom(
      '\n',
      '\n',
      '\r\n',
      '\r',
      '\v',
      '\f',
      '\u0085',
      '\u2029',
      '\n\n',
      ' ',
      '  ',
      '\t',
      '/',
      '//',
      '.',
      '});',
      "'s",
      "'T",
      'word',
      'Word',
      'HTTP',
      '123',
      '—',
      'é',
      'Ж',
      '中文',
      '😀',
      '\u00a0',
      '\u2028',
      '\u0301',
      'x/y',
      '✓',
      ' ✓ ',
      '→',
      '\u3000',
      '\u2003',
      '\ufeff',
      'a\r',
      '7\n',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 60 }), (fragments) => {
        expectExact(fragments.join(''));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts each of two pieces that a polynomial hash cannot tell apart as tiktoken does', () => {
    // Thue–Morse strings of two letters and their complements collide under any hash `h * M + c` modulo 2^32;
    // counted one after the other, the second must not take the first one's remembered count.
    const thueMorse = (length: number, even: string, odd: string): string =>
      Array.from({ length }, (_, index) => {
        let ones = 0;
        for (let bits = index; bits > 0; bits >>= 1) ones += bits & 1;
        return ones % 2 === 0 ? even : odd;
      }).join('');
    const letters = ['a', 'b', 'e', 'q', 'x', 'а', 'б', 'h', 'è'];
    for (const first of letters) {
      for (const second of letters) {
        if (first === second) continue;
        expectExact(` ${thueMorse(128, first, second)}`);
        expectExact(` ${thueMorse(128, second, first)}`);
      }
    }
  });

  it('counts any string, lone surrogates included, exactly as tiktoken does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expectExact(text);
      }),
      { numRuns: 200 },
    );
  });

  it('counts long runs of one script, single pieces of thousands of bytes, exactly as tiktoken does', () => {
    fc.assert(
      fc.property(longScriptRun, (text) => {
        expectExact(text);
      }),
      { numRuns: 15 },
    );
  });

  // tiktoken's published vocabulary, as js-tiktoken ships it: each token's bytes in base64.
  const tokens = new Set(
    publishedRanks[encodingName].bpe_ranks.split('\n').flatMap((line) => line.split(' ').slice(2)),
  );
  /** Whether the vocabulary has a token of exactly these ASCII characters (special tokens are not among them). */
  const isToken = (text: string): boolean => tokens.has(btoa(text));

  it("counts a short ASCII span as one token only when it is one of tiktoken's published tokens", () => {
    expect(vocabulary.countText(' hello')).toBe(1);
    expect(vocabulary.countText('<|endoftext|>')).toBe(exactCount('<|endoftext|>'));
    const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
    const asciiSpan = fc.oneof(
      fc.string({ unit: printable, minLength: 1, maxLength: 8 }),
      fc.string({
        unit: fc.constantFrom(' ', '\t', '\n', '\r', '-', '=', '*', '_'),
        minLength: 1,
        maxLength: 20,
      }),
      fc.lorem({ maxCount: 1 }).map((word) => ` ${word}`),
      fc.constantFrom(' hello', 'ing', ' the', '\n\n', '    ', '1234', ' 123', 'http', '://'),
    );
    fc.assert(
      fc.property(asciiSpan, (span) => {
        const count = vocabulary.countText(span);
        expect(count, span).toBe(exactCount(span));
        if (count === 1) expect(isToken(span), span).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
