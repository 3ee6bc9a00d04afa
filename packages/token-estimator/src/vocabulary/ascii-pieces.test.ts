import fc from 'fast-check';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  type AsciiPieceEncoding,
  asciiPieceEnd,
  cl100kAsciiPieceEnd,
  o200kAsciiPieceEnd,
} from './ascii-pieces.js';

// The patterns as tiktoken publishes them (js-tiktoken's ranks files), run as tiktoken's JavaScript port runs them.
const encodings: {
  name: AsciiPieceEncoding;
  pattern: RegExp;
  pieceEnd: (text: string, start: number) => number;
}[] = [
  { name: 'o200k_base', pattern: new RegExp(o200kBase.pat_str, 'gu'), pieceEnd: o200kAsciiPieceEnd },
  { name: 'cl100k_base', pattern: new RegExp(cl100kBase.pat_str, 'gu'), pieceEnd: cl100kAsciiPieceEnd },
];

const runs = 20_000;

function regexPieces(pattern: RegExp, text: string): string[] {
  return Array.from(text.matchAll(pattern), (match) => match[0]);
}

function splitterPieces(pieceEnd: (text: string, start: number) => number, text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = pieceEnd(text, start);
    // A piece that does not move would loop forever: stop and let the comparison fail.
    if (end <= start) {
      pieces.push(`<no progress at ${start}>`);
      break;
    }
    pieces.push(text.slice(start, end));
  }
  return pieces;
}

function samePieces(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

const anyAsciiCharacter = fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code));
const controlCharacter = fc.oneof(
  fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)),
  fc.constant('\x7f'),
);

/** Fragments that meet the patterns' edge cases: whitespace and line breaks, contractions, case changes, digits, slashes. */
const edgeFragment = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(' ', ' ', ' ', '  ', '\t', '\r', '\n', '\r\n', '\v', '\f', '\n\n', ' \n '),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "'",
      "'s",
      "'S",
      "'t",
      "'T",
      "'re",
      "'rE",
      "'RE",
      "'ve",
      "'VE",
      "'m",
      "'M",
      "'ll",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("'Ll", "'lL", "'d", "'D", "'r", "'v", "'l", "'x", "''") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'HTTPServer',
      'iPhone',
      'ABc',
      'A',
      'I',
      'a',
      's',
      't',
      're',
      'LL',
      'don',
      'DON',
      'xY',
    ),
  },
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z]{1,6}$/) },
  { weight: 3, arbitrary: fc.stringMatching(/^[0-9]{1,8}$/) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '/',
      '//',
      './',
      '/*',
      '*/',
      '.',
      ',',
      '!',
      '?',
      '-',
      '_',
      '=>',
      '{',
      '"',
      '`',
    ),
  },
  { weight: 2, arbitrary: controlCharacter },
  { weight: 2, arbitrary: anyAsciiCharacter },
);

const edgeText = fc.array(edgeFragment, { maxLength: 24 }).map((fragments) => fragments.join(''));
const randomAsciiText = fc.string({ unit: anyAsciiCharacter, maxLength: 40 });

/** The subtleties the splitter has to keep, and counterexamples the properties gave for splitters that missed one. */
const fixedTexts = [
  '',
  'a  b',
  'a \t b',
  '\n  \n  x',
  '  \r\n',
  '\r\n\r\n\t  \n   x  ',
  ' \t!',
  '\t\tb',
  ' \x1c x',
  "don't DON'T I'm it'sx 'the",
  " 's '",
  "'",
  "x'",
  "x'r",
  "x'Ll",
  'HTTPServer iPhone ABc aBC',
  '1234567 12',
  'a./\n/\r\n/b',
  '!\n/x',
  ' .a',
  ' //\n',
  '\x00\x01\x7f\x1b[0m',
  '\v\f\v x',
  'end   ',
  "A'd",
  "HTTPServer'D",
  "'dHTTPServer",
  'path/to/file.ts:12:5\r\n\tat run (src/a.js)\n',
];

describe.each(encodings)('the ASCII pieces of $name', ({ name, pattern, pieceEnd }) => {
  it.each(fixedTexts.map((text) => ({ text, label: JSON.stringify(text) })))(
    'split $label as the regex does',
    ({ text }) => {
      expect(splitterPieces(pieceEnd, text)).toEqual(regexPieces(pattern, text));
    },
  );

  it('are found by asciiPieceEnd with the encoding name', () => {
    const text = "It's HTTPServer's 12345 lines,\r\n  they'll see  ";
    expect(splitterPieces((whole, start) => asciiPieceEnd(whole, start, name), text)).toEqual(
      regexPieces(pattern, text),
    );
  });

  for (const [label, texts] of [
    ['text built from the edge cases', edgeText],
    ['random ASCII text', randomAsciiText],
  ] as const) {
    it(`split ${label} as the regex does`, () => {
      fc.assert(
        fc.property(texts, (text) => {
          const found = splitterPieces(pieceEnd, text);
          const expected = regexPieces(pattern, text);
          // The cheap comparison first; `expect` only to report a difference.
          if (!samePieces(found, expected)) expect(found).toEqual(expected);
        }),
        { numRuns: runs },
      );
    });
  }
});
