import fc from 'fast-check';

/** Pieces that tokenizers and the fast estimator treat specially, glued together in any order. */
const trickyPiece = fc.constantFrom(
  'word',
  'getUserName',
  'HTTPServer',
  'xq',
  'QZ',
  'Zm9v',
  ' ',
  '  ',
  '\n',
  '\n    ',
  '\t',
  '\r\n',
  '\u00a0',
  '12345',
  '7',
  '(',
  '});',
  '-',
  '...',
  '<|endoftext|>',
  '<|im_start|>',
  '上下文',
  'ありがとう',
  'Привет',
  'é',
  'Ωμέγα',
  'שלום',
  '😀',
  '👍🏽',
  '\ud800',
  '\udfff',
  '→',
  '\uffff',
  '\u0000',
  'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5',
  'deadbeef42',
  '3f2a9c1d8e7b6a5f',
);

/**
 * Any string: arbitrary code points (lone surrogates included), graphemes (emoji, CJK, any script), and
 * mixtures of the pieces above with short arbitrary strings: mixed scripts, digits, punctuation runs, blobs.
 */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc
    .array(fc.oneof(trickyPiece, fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 60 })
    .map((pieces) => pieces.join('')),
);

const identifier = fc
  .array(fc.lorem({ maxCount: 1 }), { minLength: 1, maxLength: 4 })
  .map((words) =>
    words.map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join(''),
  );

const codeLine = fc
  .tuple(fc.nat({ max: 4 }), identifier, identifier, fc.integer({ min: 0, max: 99_999 }))
  .map(
    ([depth, name, argument, number]) =>
      `${'  '.repeat(depth)}const ${name} = ${argument}(${number}, '${name}');`,
  );

const logLine = fc
  .tuple(
    fc.date({ min: new Date(2020, 0, 1), max: new Date(2030, 0, 1), noInvalidDate: true }),
    fc.constantFrom('INFO', 'WARN', 'ERROR', 'DEBUG'),
    fc.uuid(),
    fc.lorem({ maxCount: 6 }),
  )
  .map(([date, level, id, message]) => `${date.toISOString()} [${level}] request=${id} ${message}`);

const cjkSentence = fc
  .array(
    fc.constantFrom(
      '压缩',
      '对话',
      '历史',
      '上下文',
      '窗口',
      'を',
      '保持',
      'します',
      '대화',
      '기록',
      '。',
      '、',
    ),
    {
      minLength: 1,
      maxLength: 20,
    },
  )
  .map((words) => words.join(''));

const multilingualSentence = fc
  .array(
    fc.constantFrom('Привет', 'мир', 'données', 'naïve', 'Straße', 'καλημέρα', 'çalışma', 'über', '😀', '—'),
    {
      minLength: 1,
      maxLength: 12,
    },
  )
  .map((words) => words.join(' '));

/** One realistic fragment of an agent conversation: prose, code, JSON, logs, paths, blobs, other scripts. */
export const realisticFragment: fc.Arbitrary<string> = fc.oneof(
  fc.lorem({ mode: 'sentences', maxCount: 4 }),
  fc.lorem({ maxCount: 3 }),
  identifier,
  codeLine,
  logLine,
  fc.json({ maxDepth: 2 }),
  fc.webUrl({ withQueryParameters: true }),
  fc.emailAddress(),
  fc.array(identifier, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join('/')}.ts`),
  fc.base64String({ maxLength: 120 }),
  fc.stringMatching(/^[0-9a-f]{7,40}$/),
  fc.integer().map(String),
  fc.double({ noNaN: true }).map(String),
  cjkSentence,
  multilingualSentence,
  fc.constantFrom('\n', '\n\n', '\n    ', ' ', '. ', ', ', '```\n', '- ', '| a | b |\n|---|---|'),
);

/** A realistic text: fragments joined by spaces, line breaks or nothing. */
export const realisticText: fc.Arbitrary<string> = fc
  .array(fc.tuple(realisticFragment, fc.constantFrom(' ', '\n', '\n\n', '')), { maxLength: 12 })
  .map((parts) => parts.map(([fragment, separator]) => fragment + separator).join(''));
