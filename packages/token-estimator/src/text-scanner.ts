import { EmbeddedModule } from './embedded-module.js';
import { textScannerBinary } from './text-scanner-binary.js';

/*
 * The WebAssembly build of the text scanner (source: assembly/text-scanner.ts). It runs the same rules as
 * the JavaScript scanner in text-features.ts with fewer instructions per character (about 60% fewer under
 * valgrind on the benchmark corpus), because it reads UTF-16 units straight from memory where JavaScript pays
 * for `charCodeAt` on every one. The text is copied in natively, a fraction of the scan's cost; where that or
 * WebAssembly is not available (see embedded-module.ts), the JavaScript scanner runs: the count is the same
 * either way, only the speed differs.
 */

/** Where the module expects things in its memory (see assembly/text-scanner.ts). */
const classesAt = 0;
const pairsAt = 66560;
const countsAt = 67584;
const textAt = 131072;
/** The module writes this many counts, one per text feature and the long-run tokens, as 32-bit integers. */
const featureCount = 28;
/**
 * Longer texts are scanned in JavaScript: the module's memory is never given back, and texts of megabytes are
 * rare enough that holding more than 8 MB for them is not worth it.
 */
const maximumLength = 4 * 1024 * 1024 - textAt / 2;

interface Scanner {
  module: EmbeddedModule;
  measure: (length: number) => void;
  /** A view of the counts, made again when the memory grows (growing detaches the old buffer). */
  counts: Int32Array;
}

/** `undefined` until first used; `null` once the scanner turned out not to be usable here. */
let scanner: Scanner | null | undefined;

function createScanner(classes: Uint8Array, letterPairs: Uint8Array): Scanner | null {
  const module = EmbeddedModule.instantiate(textScannerBinary, textAt + 1, textAt + maximumLength * 2);
  if (module === null) return null;
  new Uint8Array(module.buffer, classesAt, classes.length).set(classes);
  new Uint8Array(module.buffer, pairsAt, letterPairs.length).set(letterPairs);
  return {
    module,
    measure: module.exports.measure as (length: number) => void,
    counts: new Int32Array(module.buffer, countsAt, featureCount),
  };
}

/**
 * Counts the features of `text` into `into` with the WebAssembly scanner and returns `true`, or returns
 * `false` (leaving `into` alone) when the scanner is not available here or the text is too long for it.
 * `classes` is the class of every UTF-16 unit and `letterPairs` the table of rare letter pairs, copied into
 * the module's memory on first use.
 */
export function measureWithScanner(
  text: string,
  into: Float64Array,
  classes: Uint8Array,
  letterPairs: Uint8Array,
): boolean {
  if (scanner === undefined) scanner = createScanner(classes, letterPairs);
  if (scanner === null || text.length > maximumLength || !scanner.module.copyText(text, textAt)) return false;
  scanner.measure(text.length);
  let counts = scanner.counts;
  if (counts.buffer !== scanner.module.buffer) {
    counts = new Int32Array(scanner.module.buffer, countsAt, featureCount);
    scanner.counts = counts;
  }
  // A buffer of only the features leaves the long-run tokens out, as the JavaScript scanner does.
  const written = Math.min(featureCount, into.length);
  for (let index = 0; index < written; index++) into[index] = counts[index]!;
  return true;
}
