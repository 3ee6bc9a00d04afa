import { loneCjkCharacters, mergingCjkCharacters } from './cjk-characters.js';
import { rareLetterPairs } from './rare-letter-pairs.js';
import { measureWithScanner } from './text-scanner.js';

/**
 * The classes of text the fast estimator counts, in a fixed order. Each is a count that real BPE tokenizers
 * (o200k, cl100k, Claude's) turn into tokens at a roughly constant rate, so a token count is well
 * approximated by a weighted sum of them:
 *
 * - `letterPieces`: runs of letters, split where a tokenizer's pre-tokenizer splits them (a lowercase
 *   letter followed by an uppercase one, a letter next to a digit), so `getUserName` is three pieces, except
 *   those counted as `joinedPieces`: a piece right after a single `.`, `(` or `_` that follows no space
 *   (`.push`, `(ctx`, `_id`), which is mostly one token together with that character;
 * - `attachedPieces`: pieces right after other punctuation (`-thai` in a URL slug, `:value`), which
 *   tokenizers split more finely than words after a space (they also count as `letterPieces`);
 * - `letters`: the letters in all pieces; `capitals`: the uppercase ones among them, except the one capital
 *   that starts a capitalised word (`Haus`, `Context`), counted as `titleCapitals`: tokenizers hold many
 *   capitalised words whole, while capitals in a row (`HTTP`, `getURL`, base64) split;
 * - `rareLetterPairs`: neighbouring letters inside a piece that words seldom put side by side (238 pairs
 *   such as `qz` or `vk`, read from the o200k vocabulary): random text such as base64, keys and hashes is
 *   full of them, words have none;
 * - `digitGroups`: digits in groups of up to three, as o200k and cl100k split numbers; `spacedNumbers`:
 *   a lone space right before a number, since a number never absorbs the space before it (a word does), or
 *   ending the text, where nothing follows to absorb it (longer runs of whitespace count as `spaceRuns`);
 *   `lettersThenDigits`: runs of digits right after letters (`item2`, `Zm9v` in base64), which cost more
 *   than a number standing alone;
 * - `punctuation`: ASCII punctuation characters; `punctuationRuns`: runs of them (a run with the space before
 *   it and the line feeds after it is one pre-token, mostly one token);
 * - `lineBreaks`: whitespace runs that contain a line feed, except those right after punctuation, which the
 *   pre-tokenizers join to it (`{\n`, `);\n`) and count as `joinedLineBreaks`; `spaceRuns`: runs of spaces and
 *   tabs other than a single space (which joins the next token), including indentation after a line feed;
 * - letters of other alphabets, which also count in `letterPieces` and `letters`, by script, since each
 *   tokenizer learned each script to a different depth: `accentedLetters` (Latin-1 and Latin Extended),
 *   `cyrillicLetters` (Greek and Cyrillic), `arabicLetters` (Hebrew, Arabic, Syriac, Thaana) and
 *   `indicLetters` (Devanagari and the other scripts from U+0900, and Armenian), `hangulLetters` (Korean
 *   syllables, which tokenizers merge into words as they do letters, not one by one as they do Chinese
 *   characters); two of these count again a part of their letters, which costs more in some tokenizers than
 *   the rest: Greek (`greekLetters`, also in `cyrillicLetters`: cl100k spends twice as many tokens on Greek as
 *   on Russian) and
 *   the scripts from Bengali on other than Thai and Lao, and Armenian (`sparseScriptLetters`, also in
 *   `indicLetters`, which counts Armenian too: Bengali, Tamil, Telugu, Sinhala, Tibetan, Myanmar, Georgian,
 *   Ethiopic, Khmer, Armenian..., which cl100k learned hardly at all);
 * - `cjk`: Chinese, Japanese and Korean characters and full-width forms, of which o200k merges the common
 *   ones into entries of several characters (listed in src/cjk-characters.ts); `loneCjk`: those that are an
 *   entry of their own but merge with none (listed there too), about a token each; `rareCjk`:
 *   those in neither list, two or three byte tokens each (Traditional Chinese is full of both); `otherNonAscii`: any other non-ASCII UTF-16 unit outside surrogates
 *   (symbols, arrows, box drawing); `surrogates`: surrogate units (emoji and other astral characters, lone
 *   surrogates included), and two for each symbol of the emoji blocks of the Basic Multilingual Plane
 *   (U+2300 to U+23FF, U+2600 to U+27BF, U+2B00 to U+2BFF, the keycap U+20E3: `⏰`, `✅`, `❤`, `⭐`), which
 *   tokenizers price like an astral emoji, up to 3 tokens alone, though it takes one unit.
 *
 * Every count is local: it depends on single characters, on two neighbouring ones, or on a run that text
 * added anywhere can only lengthen or split (digit groups, pieces, runs), never on a verdict about a whole run.
 * So adding text to a text lowers no count, except by one the few counts of the two neighbours it separates
 * (see {@link textFeatureBonds}), and except where it moves a count to a heavier one (see
 * {@link textFeatureOrders}).
 */
export const textFeatureNames = [
  'letterPieces',
  'attachedPieces',
  'letters',
  'capitals',
  'rareLetterPairs',
  'digitGroups',
  'spacedNumbers',
  'punctuation',
  'punctuationRuns',
  'joinedPieces',
  'lineBreaks',
  'spaceRuns',
  'accentedLetters',
  'cyrillicLetters',
  'arabicLetters',
  'indicLetters',
  'hangulLetters',
  'cjk',
  'loneCjk',
  'rareCjk',
  'otherNonAscii',
  'surrogates',
  'joinedLineBreaks',
  'titleCapitals',
  'lettersThenDigits',
  'greekLetters',
  'sparseScriptLetters',
] as const;

/** One class of text counted by {@link measureText}. */
export type TextFeature = (typeof textFeatureNames)[number];

/** Tokens per unit of each {@link TextFeature}. */
export type TextFeatureWeights = Record<TextFeature, number>;

/** Number of {@link textFeatureNames}. */
export const textFeatureCount = textFeatureNames.length;

/**
 * Where {@link measureText} writes, after the features, the tokens that the weighted features are known to miss
 * on long runs of one repeated character or a short repeated pattern (`yyyy…`, `abab…`, `====…`, blank lines):
 * BPE tokenizers split such runs into short chunks (o200k and cl100k spend a token per 2 to 8 repeated letters,
 * per 4 to 16 tabs or line feeds, per 2 to 64 punctuation characters, per 100 to 128 spaces), while the features
 * count a run once whatever its length, so a long run was counted at a tenth of its tokens or less. Each such run adds
 * its floor (see {@link longRunMinimum}) less what the run's own features already give, never less than 0: the
 * floors only ever raise an estimate. Added at a weight of 1 (times the safety factor), not fitted.
 */
export const longRunTokensIndex = textFeatureCount;

/** Length of the buffer that {@link measureText} fills: the features and the long-run tokens. */
export const measuredCount = textFeatureCount + 1;

/**
 * The shortest periodic stretch of a word (a letter run with or without digits) that gets a floor (see
 * {@link repeatedWordFloor}). Only a stretch that repeats a pattern of 1 to 4 units gets it: words, identifiers and random text such as base64 do
 * not repeat, and keep their fitted estimate. Long enough that no real word is floored, short enough that a
 * padded field is; text that breaks a floored run into shorter ones can take away up to about this many tokens.
 */
export const longRunMinimum = 32;

/** The shortest run of whitespace or punctuation that gets a floor. */
const longSeparatorMinimum = 16;

/**
 * How many characters of a long punctuation run o200k and cl100k put in one token at most, as a power of 2: a
 * repeated character by how each tokenizer learned it (at least 59 of `#*-./=_`, 31 of `%+~`, 4 to 16 of
 * `!:;<>?@^`, 2 to 4 of the others, such as `{`, `[`, `&`, `` ` ``), a mixed run 16 (`-=-=`; many mixes are
 * shorter still, and stay under-counted).
 * The masks hold one bit per ASCII character: 32 to 63, 64 to 95, 96 to 127. Called once per long run only.
 */
function punctuationRunShift(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start);
  let index = start + 1;
  while (index < end && text.charCodeAt(index) === first) index++;
  if (index < end) return 4;
  const bit = 1 << (first & 31);
  const dense = first < 64 ? 0x2000e408 : first < 96 ? 0x80000000 : 0;
  if ((dense & bit) !== 0) return 5;
  const fair = first < 64 ? 0x820 : first < 96 ? 0 : 0x40000000;
  if ((fair & bit) !== 0) return 4;
  const medium = first < 64 ? 0xdc000002 : first < 96 ? 0x40000001 : 0;
  return (medium & bit) !== 0 ? 2 : 1;
}

/**
 * How many of one repeated letter o200k and cl100k put in one token at most, as a power of 2: 8 of `afoxAFX`
 * (7.6 on some lengths, which the `letters` weight makes up), 4 of `bcdeyBCELMY`, 2 of the other letters (and
 * of letters of other alphabets), 4 of a digit (whose groups are counted already). Bits by `code & 31`.
 */
function repeatedLetterShift(code: number): number {
  if (code < 65) return 2;
  if (code > 122) return 1;
  const bit = 1 << (code & 31);
  if (((code < 97 ? 0x1000042 : 0x1008042) & bit) !== 0) return 3;
  return ((code < 97 ? 0x200302c : 0x200003c) & bit) !== 0 ? 2 : 1;
}

/**
 * Whether a single punctuation character joins the word right after it into one token as a rule: `.`, `(` and
 * `_` begin thousands of o200k and cl100k entries (`.push`, `(ctx`, `_id`) that programs use all the time; after
 * the others (`:value`, `=key`, `-thai`, `/path`) the word is a token of its own. Bits by `code & 31` of the
 * characters 32 to 63, and `_`.
 */
function joinsWord(code: number): boolean {
  return code < 64 ? ((0x4100 >>> (code & 31)) & 1) !== 0 : code === 95;
}

/** Whether the `count` units from `from` are one unit repeated. */
function isUniform(text: string, from: number, count: number): boolean {
  for (let index = from + 1; index < from + count; index++) {
    if (text.charCodeAt(index) !== text.charCodeAt(from)) return false;
  }
  return true;
}

/**
 * The floor in tokens of the word `text[start, end)`: of the longest stretch at its start or end that repeats
 * one unit (by {@link repeatedLetterShift}) or a pattern of 2 to 4 units (a token per 2, as `abab` in cl100k),
 * 0 when no such stretch is {@link longRunMinimum} long. Called once per long word only: on words that do not
 * repeat it stops at the first units.
 */
function repeatedWordFloor(text: string, start: number, end: number): number {
  let floor = 0;
  for (let period = 1; period <= 4; period++) {
    // A longer period of one repeated unit is the one-unit case, already measured with its own rate.
    let forward = start + period;
    if (period === 1 || !isUniform(text, start, period)) {
      while (forward < end && text.charCodeAt(forward) === text.charCodeAt(forward - period)) forward++;
    }
    let backward = end - 1 - period;
    if (period === 1 || !isUniform(text, end - period, period)) {
      while (backward >= start && text.charCodeAt(backward) === text.charCodeAt(backward + period))
        backward--;
    }
    const atStart = forward - start >= end - 1 - backward;
    const stretch = atStart ? forward - start : end - 1 - backward;
    if (stretch < longRunMinimum) continue;
    const shift = period === 1 ? repeatedLetterShift(text.charCodeAt(atStart ? start : end - 1)) : 1;
    floor = Math.max(floor, (stretch + (1 << shift) - 1) >> shift);
  }
  return floor;
}

// Character classes of UTF-16 code units.
const lower = 1;
const upper = 2;
/** A letter of another alphabet: part of words, without case splits. */
const otherLetter = 3;
const digit = 4;
const space = 5;
const newline = 6;
const otherWhitespace = 7;
const punctuation = 8;
const cjkCharacter = 9;
const surrogate = 10;
const symbol = 11;
/** A CJK character without a token of its own in o200k. */
const rareCjkCharacter = 12;
/** A CJK character that is an o200k token of its own but inside no longer one. */
const loneCjkCharacter = 13;
/** Past the end of the text. */
const end = 14;
/** Not a class of units: what `before` holds after a single punctuation character joined to the word after it. */
const joinedCharacter = 15;
/**
 * A symbol of the emoji blocks in the Basic Multilingual Plane (one UTF-16 unit, 3 UTF-8 bytes): counted as the
 * two `surrogates` of an astral emoji, since it costs as much alone (up to 3 tokens in o200k and cl100k).
 */
const emojiSymbol = 16;
/** The unit read past the end of the text: one more than any UTF-16 unit, of class `end`. */
const pastEnd = 0x10000;

/** The class of every UTF-16 code unit (64 KB), and `end` for {@link pastEnd}: one array read per character. */
function buildClassTable(): Uint8Array {
  const table = new Uint8Array(pastEnd + 1).fill(symbol);
  table[pastEnd] = end;
  table.fill(punctuation, 33, 127);
  table.fill(otherWhitespace, 0, 32);
  table[127] = otherWhitespace;
  table.fill(lower, 97, 123);
  table.fill(upper, 65, 91);
  table.fill(digit, 48, 58);
  table[32] = space;
  table[0xa0] = space;
  table[10] = newline;
  // Latin-1 letters, Latin Extended, Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic and other alphabets.
  table.fill(otherLetter, 0xc0, 0x2b0);
  table.fill(otherLetter, 0x370, 0x2000);
  table[0xd7] = symbol;
  table[0xf7] = symbol;
  // CJK punctuation, kana, ideographs, compatibility ideographs, full-width forms; Hangul syllables are letters.
  table.fill(cjkCharacter, 0x3000, 0xa000);
  table.fill(otherLetter, 0xac00, 0xd7b0);
  table.fill(cjkCharacter, 0xf900, 0xfb00);
  table.fill(cjkCharacter, 0xff00, 0xfff0);
  for (let code = 0x3000; code < 0xfff0; code++)
    if (table[code] === cjkCharacter) table[code] = rareCjkCharacter;
  for (let index = 0; index < loneCjkCharacters.length; index++) {
    table[loneCjkCharacters.charCodeAt(index)] = loneCjkCharacter;
  }
  for (let index = 0; index < mergingCjkCharacters.length; index++) {
    table[mergingCjkCharacters.charCodeAt(index)] = cjkCharacter;
  }
  table.fill(surrogate, 0xd800, 0xe000);
  // Miscellaneous Technical (`⌚`, `⏰`), Miscellaneous Symbols and Dingbats (`☀`, `✅`, `❤`), Miscellaneous
  // Symbols and Arrows (`⭐`, `⬛`), and the combining keycap of `1️⃣`: o200k and cl100k learned few of them, and
  // spend up to 3 tokens on one alone, as on an astral emoji, where the common symbols (quotes, dashes, arrows,
  // box drawing) cost one.
  table.fill(emojiSymbol, 0x2300, 0x2400);
  table.fill(emojiSymbol, 0x2600, 0x27c0);
  table.fill(emojiSymbol, 0x2b00, 0x2c00);
  table[0x20e3] = emojiSymbol;
  return table;
}

// A module constant rather than built on first use: the optimizing compiler then treats the table as fixed
// instead of re-checking it at every character, which measured about 7% fewer instructions per character.
export const classTable = buildClassTable();

/**
 * 1 at `(first & 31) << 5 | (second & 31)` for each of the {@link rareLetterPairs} (the low five bits of an
 * ASCII letter are 1 to 26 in either case), 0 elsewhere: row 0 stands for "no letter before".
 */
function buildLetterPairTable(): Uint8Array {
  const table = new Uint8Array(1024);
  for (const pair of rareLetterPairs.split(' ')) {
    table[((pair.charCodeAt(0) & 31) << 5) | (pair.charCodeAt(1) & 31)] = 1;
  }
  return table;
}

/** Which pairs of ASCII letters are rare (see {@link buildLetterPairTable}). */
export const letterPairTable = buildLetterPairTable();

/**
 * The features that count two particular neighbours meeting, grouped by the place where they meet: a rare
 * pair of letters; a piece right after punctuation; indentation after a line feed; digits right after letters.
 * Text put between two neighbours separates them and takes away at most one count of each feature in that
 * place's group (a line feed put after indentation ends it), and two texts glued together create at most one
 * such place. Every other count only grows, moves to a feature that weighs at least as much (see
 * {@link textFeatureOrders}), or gives way to a count of what was added: added text lengthens or splits runs
 * and pieces but never merges two; a lone space before a number or ending the text (`spacedNumbers`) stops
 * counting only when something is put after it, which counts itself; punctuation put before a line feed joins it
 * and counts itself. So adding text lowers an estimate, and gluing two texts raises it above the two apart, by
 * at most the largest sum of weights of one group, times the safety factor (the fit holds what gives way within
 * the same bound); the shipped profiles keep that under one token.
 */
export const textFeatureBonds: readonly (readonly TextFeature[])[] = [
  ['rareLetterPairs'],
  ['attachedPieces'],
  ['spaceRuns'],
  ['lettersThenDigits'],
];

/**
 * Pairs of features where added text can move a count from the first to the second, which must weigh at
 * least as much for the estimate not to drop: a joined piece that a space or a digit parts from its `.`
 * becomes a letter piece; a line break that a letter parts from the punctuation before it becomes a line
 * break of its own; a capitalised word whose first letter another capital joins (`Haus` to `HXaus`) counts
 * its capitals. Each profile holds them in order.
 */
export const textFeatureOrders: readonly (readonly [TextFeature, TextFeature])[] = [
  ['joinedPieces', 'letterPieces'],
  ['joinedLineBreaks', 'lineBreaks'],
  ['titleCapitals', 'capitals'],
];

/** Texts shorter than this are measured in JavaScript: copying them into WebAssembly costs more than it saves. */
const scannerMinimumLength = 128;

/**
 * Counts the {@link TextFeature}s of a text in one pass over its UTF-16 units, writing them into `into`
 * (in the order of {@link textFeatureNames}) and returning it. Never throws: any string, lone surrogates
 * and special-token strings such as `<|endoftext|>` included, is ordinary text.
 *
 * Longer texts are scanned by a small embedded WebAssembly module where the runtime allows it (Node.js,
 * Bun); elsewhere, and when WebAssembly cannot be compiled (as on runtimes that forbid code generation), by
 * the same scanner in JavaScript. Both count the same features on every string.
 */
export function measureText(
  text: string,
  into: Float64Array = new Float64Array(measuredCount),
): Float64Array {
  if (text.length >= scannerMinimumLength && measureWithScanner(text, into, classTable, letterPairTable)) {
    return into;
  }
  return measureTextInJavaScript(text, into);
}

// Where each feature is counted in `counts`: its place in textFeatureNames, then the long-run tokens.
const letterPiecesIndex = 0;
const attachedPiecesIndex = 1;
const lettersIndex = 2;
const capitalsIndex = 3;
const rareLetterPairsIndex = 4;
const digitGroupsIndex = 5;
const spacedNumbersIndex = 6;
const punctuationIndex = 7;
const punctuationRunsIndex = 8;
const joinedPiecesIndex = 9;
const lineBreaksIndex = 10;
const spaceRunsIndex = 11;
const accentedLettersIndex = 12;
const cyrillicLettersIndex = 13;
const arabicLettersIndex = 14;
const indicLettersIndex = 15;
const hangulLettersIndex = 16;
const cjkIndex = 17;
const loneCjkIndex = 18;
const rareCjkIndex = 19;
const otherNonAsciiIndex = 20;
const surrogatesIndex = 21;
const joinedLineBreaksIndex = 22;
const titleCapitalsIndex = 23;
const lettersThenDigitsIndex = 24;
const greekLettersIndex = 25;
const sparseScriptLettersIndex = 26;

/**
 * Where each step of a scan leaves the class of the unit it stopped at (the first one after its run), so the
 * next step starts from it without reading that unit again: a step returns only where it stopped.
 */
const stoppedAtIndex = measuredCount;

/**
 * The counts of the text being scanned, shared by the steps of {@link measureTextInJavaScript} (one function per
 * class of run), which each add theirs, then the class at {@link stoppedAtIndex}. One buffer for every call,
 * since a scan runs to its end synchronously; 32-bit integers, as in the WebAssembly scanner's memory.
 */
const counts = new Int32Array(measuredCount + 1);

/** The unit at `index` of `text`, {@link pastEnd} past its end. */
function codeAt(text: string, index: number): number {
  return index < text.length ? text.charCodeAt(index) : pastEnd;
}

/** Counts the letter of another alphabet `code` by its script, by its place in Unicode. */
function countScriptLetter(code: number): void {
  if (code < 0x370) counts[accentedLettersIndex]!++;
  else if (code < 0x530) {
    counts[cyrillicLettersIndex]!++;
    if (code < 0x400) counts[greekLettersIndex]!++;
  } else if (code < 0x590) {
    // Armenian, which cl100k learned as little as Georgian (two byte tokens a letter), unlike Cyrillic.
    counts[indicLettersIndex]!++;
    counts[sparseScriptLettersIndex]!++;
  } else if (code < 0x900) counts[arabicLettersIndex]!++;
  else if (code < 0xac00) {
    counts[indicLettersIndex]!++;
    if (code >= 0x980 && (code < 0xe00 || code >= 0xf00)) counts[sparseScriptLettersIndex]!++;
  } else counts[hangulLettersIndex]!++;
}

/** Counts the letter piece (uppercase* then lowercase*) from `start`, and returns where it ends. */
function scanLetterPiece(text: string, start: number): number {
  const length = text.length;
  let index = start;
  let code = text.charCodeAt(start);
  let kind = classTable[code]!;
  // The low five bits of the ASCII letter before in this piece, 0 when there is none.
  let previous = 0;
  let rarePairs = 0;
  while (kind === upper) {
    rarePairs += letterPairTable[(previous << 5) | (code & 31)]!;
    previous = code & 31;
    index++;
    code = index < length ? text.charCodeAt(index) : pastEnd;
    kind = classTable[code]!;
  }
  // One capital before lowercase letters (`Haus`, `Context`) is a capitalized word, which tokenizers hold as
  // one entry as often as the word in lowercase; capitals in a row (`HTTP`, `getURL`) are not.
  if (index - start === 1 && code >= 97 && code <= 122) counts[titleCapitalsIndex]!++;
  else counts[capitalsIndex]! += index - start;
  // Lowercase letters in their own tight loop; a letter of another alphabet continues the piece.
  for (;;) {
    // Lowercase ASCII letters tested by range, without reading their class.
    while (code >= 97 && code <= 122) {
      rarePairs += letterPairTable[(previous << 5) | (code & 31)]!;
      previous = code & 31;
      index++;
      code = index < length ? text.charCodeAt(index) : pastEnd;
    }
    kind = classTable[code]!;
    if (kind !== otherLetter) break;
    // The table says only that the unit is a letter.
    countScriptLetter(code);
    previous = 0;
    index++;
    code = index < length ? text.charCodeAt(index) : pastEnd;
  }
  counts[rareLetterPairsIndex]! += rarePairs;
  counts[lettersIndex]! += index - start;
  counts[letterPiecesIndex]!++;
  counts[stoppedAtIndex] = kind;
  return index;
}

/** Counts the digit groups of the digits from `start`, and returns where they end. */
function scanDigits(text: string, start: number): number {
  let index = start + 1;
  let kind = classTable[codeAt(text, index)]!;
  while (kind === digit) kind = classTable[codeAt(text, ++index)]!;
  counts[digitGroupsIndex]! += ((index - start + 2) / 3) | 0;
  counts[stoppedAtIndex] = kind;
  return index;
}

/**
 * Adds the floor of the long word `text[start, end)`, less what its own features count: about a token each of
 * its pieces, digit groups and rare pairs (what {@link wordOwnCount} was `ownBefore` before it), and an eighth
 * of one each of its capitals (`capitalsBefore` before it). Out of the scan's steps, which call it rarely.
 */
function countWordFloor(
  text: string,
  start: number,
  end: number,
  ownBefore: number,
  capitalsBefore: number,
): void {
  const own = wordOwnCount() - ownBefore + ((counts[capitalsIndex]! - capitalsBefore) >> 3);
  counts[longRunTokensIndex]! += Math.max(0, repeatedWordFloor(text, start, end) - own);
}

/** What the word features count so far, for the floor of a long word: pieces, digit groups, rare pairs. */
function wordOwnCount(): number {
  return (
    counts[letterPiecesIndex]! +
    counts[joinedPiecesIndex]! +
    counts[digitGroupsIndex]! +
    counts[rareLetterPairsIndex]!
  );
}

/**
 * Counts the word run (letter pieces and digit groups) from `start`, whose first unit is of class `kind` and
 * which follows a run of class `before`, with the floor of a long one, and returns where it ends.
 */
function scanWord(text: string, start: number, kind: number, before: number): number {
  const ownBefore = wordOwnCount();
  const capitalsBefore = counts[capitalsIndex]!;
  let index = start;
  let hasLetters = false;
  for (;;) {
    if (kind === digit) {
      if (index !== start) counts[lettersThenDigitsIndex]!++;
      index = scanDigits(text, index);
    } else if (kind <= otherLetter) {
      const pieceStart = index;
      index = scanLetterPiece(text, index);
      hasLetters = true;
      // A piece joined to the punctuation before it counts as that instead.
      if (pieceStart === start && before === joinedCharacter) {
        counts[joinedPiecesIndex]!++;
        counts[letterPiecesIndex]!--;
      } else if (pieceStart === start && before === punctuation) counts[attachedPiecesIndex]!++;
    } else break;
    kind = counts[stoppedAtIndex]!;
  }
  // A number gets no floor: its digit groups are counted already.
  if (index - start >= longRunMinimum && hasLetters)
    countWordFloor(text, start, index, ownBefore, capitalsBefore);
  return index;
}

/**
 * Adds the floor of a long whitespace run of `length` units, `notSpaces` of them not spaces, less `own`, what
 * its features count: a token per 64 spaces (o200k and cl100k hold 100 to 128), per 8 other units (16 line
 * feeds or tabs, but only 4 `\r\n`).
 */
function countWhitespaceFloor(length: number, notSpaces: number, own: number): void {
  const floor = ((length - notSpaces + 63) >> 6) + ((notSpaces + 7) >> 3);
  counts[longRunTokensIndex]! += Math.max(0, floor - own);
}

/**
 * Counts the whitespace run from `start`, whose first unit is of class `kind` and which follows a run of class
 * `before`, with the floor of a long one, and returns where it ends. What follows its last line feed is
 * indentation, counted as a run of its own.
 */
function scanWhitespace(text: string, start: number, kind: number, before: number): number {
  let index = start;
  let lineBreak = false;
  let trailing = 0;
  let trailingIsSpace = true;
  // Line feeds, tabs and other whitespace that is not a space: tokenizers hold far fewer of them per token.
  let notSpaces = 0;
  do {
    if (kind === newline) {
      lineBreak = true;
      trailing = 0;
      trailingIsSpace = true;
      notSpaces++;
    } else {
      trailing++;
      if (kind === otherWhitespace) {
        trailingIsSpace = false;
        notSpaces++;
      }
    }
    index++;
    kind = classTable[codeAt(text, index)]!;
  } while (kind >= space && kind <= otherWhitespace);
  counts[stoppedAtIndex] = kind;
  let own = 0;
  if (lineBreak) {
    // Line feeds right after punctuation join it (`{\n`, `;\n`, `"}\n`), as the pre-tokenizers have it.
    const first = text.charCodeAt(start);
    if (before === punctuation && (first === 10 || first === 13)) counts[joinedLineBreaksIndex]!++;
    else counts[lineBreaksIndex]!++;
    own++;
  }
  if (trailing > 1 || (trailing === 1 && !trailingIsSpace && kind > otherLetter)) {
    counts[spaceRunsIndex]!++;
    own++;
  }
  if (index - start >= longSeparatorMinimum) countWhitespaceFloor(index - start, notSpaces, own);
  return index;
}

/** Adds the floor of the long punctuation run `text[start, end)`, less the token the run itself counts. */
function countPunctuationFloor(text: string, start: number, end: number): void {
  const shift = punctuationRunShift(text, start, end);
  counts[longRunTokensIndex]! += ((end - start + (1 << shift) - 1) >> shift) - 1;
}

/** Counts the punctuation run from `start`, with the floor of a long one, and returns where it ends. */
function scanPunctuation(text: string, start: number): number {
  let index = start + 1;
  let kind = classTable[codeAt(text, index)]!;
  while (kind === punctuation) kind = classTable[codeAt(text, ++index)]!;
  counts[stoppedAtIndex] = kind;
  counts[punctuationIndex]! += index - start;
  counts[punctuationRunsIndex]!++;
  if (index - start >= longSeparatorMinimum) countPunctuationFloor(text, start, index);
  return index;
}

/** Counts a unit of class `kind` that is neither a letter, a digit, whitespace nor ASCII punctuation. */
function countOtherUnit(kind: number): void {
  if (kind === cjkCharacter) counts[cjkIndex]!++;
  else if (kind === loneCjkCharacter) {
    counts[cjkIndex]!++;
    counts[loneCjkIndex]!++;
  } else if (kind === rareCjkCharacter) {
    counts[cjkIndex]!++;
    counts[rareCjkIndex]!++;
  } else if (kind === surrogate) counts[surrogatesIndex]!++;
  else if (kind === emojiSymbol) counts[surrogatesIndex]! += 2;
  else counts[otherNonAsciiIndex]!++;
}

/** {@link measureText} in JavaScript: the reference the WebAssembly scanner is held to, and its fallback. */
export function measureTextInJavaScript(
  text: string,
  into: Float64Array = new Float64Array(measuredCount),
): Float64Array {
  counts.fill(0);
  const length = text.length;
  // The class of the run before the current one: a word right after punctuation is "attached".
  let before = 0;
  let index = 0;
  // The class of the unit at `index`, `end` past the last one.
  let kind = classTable[codeAt(text, 0)]!;
  // Each iteration consumes one run of a class, counted by the function for that class.
  while (index < length) {
    const start = index;
    if (kind <= digit) {
      index = scanWord(text, start, kind, before);
      kind = counts[stoppedAtIndex]!;
      before = digit;
    } else if (kind <= otherWhitespace) {
      const next = kind === space ? classTable[codeAt(text, index + 1)]! : space;
      if (next < space || next > otherWhitespace) {
        // The most common run by far: one space before a word or punctuation (it joins the next token, so it
        // counts for nothing of its own), without the general whitespace loop. Before a number, or ending the
        // text, it is a token of its own.
        if (next === digit || next === end) counts[spacedNumbersIndex]!++;
        index++;
        kind = next;
      } else {
        index = scanWhitespace(text, start, kind, before);
        kind = counts[stoppedAtIndex]!;
      }
      before = space;
    } else if (kind === punctuation) {
      index = scanPunctuation(text, start);
      kind = counts[stoppedAtIndex]!;
      // A single `.`, `(` or `_` after no space joins the word after it (`.push`), which counts as that.
      const joins =
        index === start + 1 && kind <= otherLetter && before !== space && joinsWord(text.charCodeAt(start));
      before = joins ? joinedCharacter : punctuation;
    } else {
      countOtherUnit(kind);
      before = kind;
      index++;
      kind = classTable[codeAt(text, index)]!;
    }
  }
  // A buffer of only the features (as callers that fit weights pass) leaves the long-run tokens out.
  const written = Math.min(measuredCount, into.length);
  for (let feature = 0; feature < written; feature++) into[feature] = counts[feature]!;
  return into;
}
