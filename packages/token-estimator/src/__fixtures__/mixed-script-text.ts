import fc from 'fast-check';

/** Code point ranges of scripts whose text BPE tokenizers split and merge in different ways. */
const scriptRanges = {
  han: [0x4e00, 0x9fff],
  hiragana: [0x3041, 0x3096],
  katakana: [0x30a1, 0x30fa],
  hangul: [0xac00, 0xd7a3],
  cyrillic: [0x0400, 0x04ff],
  arabic: [0x0621, 0x065f],
  hebrew: [0x05d0, 0x05ea],
  devanagari: [0x0900, 0x097f],
  thai: [0x0e01, 0x0e5b],
  latinWithDiacritics: [0x00c0, 0x024f],
  combiningMarks: [0x0300, 0x036f],
} as const;

function scriptWord(range: readonly [number, number], maxLength: number): fc.Arbitrary<string> {
  return fc
    .array(fc.integer({ min: range[0], max: range[1] }), { minLength: 1, maxLength })
    .map((points) => String.fromCodePoint(...points));
}

/** Words of one script, or of Latin letters with combining marks among them. */
const scriptText = fc.oneof(
  ...Object.values(scriptRanges).map((range) => scriptWord(range, 12)),
  fc
    .array(fc.oneof(scriptWord([0x61, 0x7a], 3), scriptWord(scriptRanges.combiningMarks, 2)), {
      maxLength: 5,
    })
    .map((parts) => parts.join('')),
);

const skinTone = fc.integer({ min: 0x1f3fb, max: 0x1f3ff }).map((point) => String.fromCodePoint(point));
const regionalIndicator = fc
  .integer({ min: 0x1f1e6, max: 0x1f1ff })
  .map((point) => String.fromCodePoint(point));
const emojiBase = fc.constantFrom('👍', '👋', '👩', '👨', '🧑', '😀', '🎉', '❤️', '🔥', '✅');

const emoji = fc.oneof(
  emojiBase,
  fc.tuple(emojiBase, skinTone).map(([base, tone]) => base + tone),
  fc.tuple(regionalIndicator, regionalIndicator).map(([first, second]) => first + second),
  fc.array(emojiBase, { minLength: 2, maxLength: 4 }).map((parts) => parts.join('\u200d')),
);

const identifier = fc.oneof(
  fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,20}$/),
  fc.stringMatching(/^[A-Z][A-Z0-9_]{0,15}$/),
  fc.stringMatching(/^[a-z]+(_[a-z0-9]+){0,3}$/),
);

const number = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true }).map(String),
  fc.stringMatching(/^[0-9]{1,12}$/),
);

const whitespaceRun = fc
  .array(
    fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u3000', '\u0085', '\ufeff', '\u2028'),
    {
      minLength: 1,
      maxLength: 6,
    },
  )
  .map((parts) => parts.join(''));

const punctuationRun = fc
  .array(
    fc.constantFrom(
      ...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
      '。',
      '、',
      '，',
      '！',
      '—',
      '…',
      '«',
      '»',
      '’s',
      "'ll",
    ),
    {
      minLength: 1,
      maxLength: 8,
    },
  )
  .map((parts) => parts.join(''));

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/** One fragment: a script's words, data (hex, base64, UUIDs), code-like text, emoji, separators, oddities. */
const fragment = fc.oneof(
  { weight: 6, arbitrary: scriptText },
  fc.stringMatching(/^[0-9a-f]{1,64}$/),
  fc.base64String({ maxLength: 80 }),
  fc.uuid(),
  identifier,
  number,
  { weight: 3, arbitrary: whitespaceRun },
  { weight: 2, arbitrary: punctuationRun },
  { weight: 2, arbitrary: emoji },
  loneSurrogate,
  fc.constantFrom(
    '<|endoftext|>',
    '<|endofprompt|>',
    '<|fim_prefix|>',
    '\r\n',
    "don't",
    "WE'RE",
    'I’m',
    "it'ſ",
    "'ſ",
  ),
  fc.lorem({ maxCount: 3 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** Text mixing scripts, data, emoji, whitespace and punctuation, fragments glued with or without separators. */
export const mixedScriptText: fc.Arbitrary<string> = fc
  .array(fc.tuple(fragment, fc.constantFrom('', '', ' ', '\n', ', ')), { maxLength: 40 })
  .map((parts) => parts.map(([text, separator]) => text + separator).join(''));

/** One long run of a script's letters without punctuation: a single piece of thousands of bytes. */
export const longScriptRun: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(scriptRanges.han, scriptRanges.hangul, scriptRanges.cyrillic, scriptRanges.thai),
    fc.integer({ min: 200, max: 3000 }),
    fc.integer({ min: 1, max: 40 }),
    fc.nat(),
  )
  .map(([range, length, alphabetSize, offset]) => {
    // A small alphabet repeats pairs, which BPE merges into longer tokens; a large one mostly does not.
    const span = range[1] - range[0] + 1;
    const points: number[] = [];
    let state = offset;
    for (let index = 0; index < length; index++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      points.push(range[0] + ((offset + ((state >>> 16) % alphabetSize)) % span));
    }
    return String.fromCodePoint(...points);
  });
