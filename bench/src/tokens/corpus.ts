import { codeFunction, codeLanguages } from './code.js';
import { base32Keys, hexDigests, jsonWebTokens, randomBase64, randomHex, uuids } from './encodings.js';
import { fill } from './names.js';
import { englishParagraph, languageParagraph, languages } from './prose.js';
import { createRandom, type Random } from './random.js';
import { base64Blob, diff, emojiText, jsonValue, logLine, repeatedUnits, url } from './structured.js';

/** The seed of the calibration corpus, the one the shipped profiles are fitted on. */
export const calibrationSeed = 1;
/** The seed of the held-back corpus: the same classes, texts the fit never sees. */
export const heldBackSeed = 2;
/** Samples per class in both corpora, as fitted and as measured (short strings have more, see {@link shortStringMultiple}). */
export const samplesPerClass = 40;

type Generator = (random: Random, size: number) => string;

const proseGenerators = Object.fromEntries(
  Object.entries(languages).map(([name, language]) => [
    `prose-${name}`,
    (random: Random, size: number) => fill(size, () => languageParagraph(random, language), '\n\n'),
  ]),
) as Record<`prose-${keyof typeof languages}`, Generator>;

const codeGenerators = Object.fromEntries(
  Object.entries(codeLanguages).map(([name, language]) => [
    `code-${name}`,
    (random: Random, size: number) => fill(size, () => codeFunction(random, language), '\n\n'),
  ]),
) as Record<`code-${keyof typeof codeLanguages}`, Generator>;

const generators = {
  'prose-english': (random, size) => fill(size, () => englishParagraph(random), '\n\n'),
  ...proseGenerators,
  ...codeGenerators,
  'json-minified': (random, size) => fill(size, () => JSON.stringify(jsonValue(random)), '\n'),
  'json-pretty': (random, size) => fill(size, () => JSON.stringify(jsonValue(random), null, 2), '\n'),
  logs: (random, size) => fill(size, () => logLine(random), '\n'),
  'base64-plain': (random, size) => base64Blob(random, size, false),
  'base64-wrapped': (random, size) => base64Blob(random, size, true),
  urls: (random, size) => fill(size, () => url(random), random.pick(['\n', ' '])),
  diffs: (random, size) => fill(size, () => diff(random), '\n'),
  emoji: emojiText,
  'short-strings': (random) => shortString(random),
  mixed: (random: Random, size: number): string =>
    fill(size, () => generators[random.pick(mixable)](random, random.integer(100, 800)), '\n\n'),
  // Last, and out of the mixed samples, so that adding it left every sample of the other classes as it was.
  'repeated-units': repeatedUnits,
  // Random data, after the others for the same reason, and out of the mixed samples.
  'hex-digests': hexDigests,
  'random-hex': randomHex,
  uuids,
  'random-base64': randomBase64,
  base32: base32Keys,
  'json-web-tokens': jsonWebTokens,
} satisfies Record<string, Generator>;

/** The content classes the corpus covers, each measured separately by the benchmark. */
export type ContentClass = keyof typeof generators;
export const contentClasses = Object.keys(generators) as ContentClass[];

/**
 * Classes the fit never sees, in either corpus: whole sources held back, so that the benchmark shows how the
 * estimate does on kinds of text it was not fitted on.
 */
export const heldBackClasses: readonly ContentClass[] = ['base32', 'json-web-tokens'];

/** Classes added after the mixed samples were defined: left out of them, which keeps those samples as they were. */
const unmixedClasses: readonly ContentClass[] = [
  'mixed',
  'short-strings',
  'repeated-units',
  'hex-digests',
  'random-hex',
  'uuids',
  'random-base64',
  'base32',
  'json-web-tokens',
];

/** Classes that a mixed sample or a short string is cut from. */
const mixable: readonly ContentClass[] = contentClasses.filter((name) => !unmixedClasses.includes(name));

/** One generated sample. */
export interface CorpusSample {
  contentClass: ContentClass;
  text: string;
}

/** Settings of {@link generateCorpus}. */
export interface CorpusSettings {
  /** Samples per class. Default {@link samplesPerClass}. */
  samplesPerClass?: number;
  /** Seed: {@link calibrationSeed} for the corpus the profiles are fitted on, {@link heldBackSeed} for the held-back one. */
  seed?: number;
}

/**
 * Generates the calibration and held-back corpora: prose in eleven languages, code in six, JSON minified and
 * pretty, logs, base64 plain and wrapped, URLs, diffs, emoji, strings under 128 characters and mixed
 * agent-like messages, a short unit of text repeated (`key=key=…`, `null,null,…`), random data (hex digests, random hex, UUIDs,
 * base64 of random bytes, base32 keys, JSON Web Tokens), each sample (short strings aside) 200 to 12,000 characters. Deterministic per seed.
 */
export function generateCorpus(settings: CorpusSettings = {}): CorpusSample[] {
  const random = createRandom(settings.seed ?? calibrationSeed);
  const perClass = settings.samplesPerClass ?? samplesPerClass;
  const samples: CorpusSample[] = [];
  for (const contentClass of contentClasses) {
    const count = contentClass === 'short-strings' ? perClass * shortStringMultiple : perClass;
    for (let index = 0; index < count; index++) {
      const size = Math.round(200 * 60 ** random.next());
      samples.push({ contentClass, text: generators[contentClass](random, size) });
    }
  }
  return samples;
}

/**
 * Short strings are this many times as many samples as the other classes: forty of them hold about a thousand
 * tokens, so one draw's total differed from the next by several percent, whatever the estimator did.
 */
export const shortStringMultiple = 10;

/** A string of 1 to 127 characters: the start of a sample of another class, cut between two characters. */
function shortString(random: Random): string {
  const generate: Generator = generators[random.pick(mixable)];
  const characters = Array.from(generate(random, 128));
  return characters.slice(0, random.integer(1, 127)).join('').slice(0, 127);
}
