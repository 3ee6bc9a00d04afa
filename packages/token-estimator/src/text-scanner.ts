import { textScannerBinary } from './text-scanner-binary.js';

/*
 * The WebAssembly build of the text scanner (source: assembly/text-scanner.ts). It runs the same rules as
 * the JavaScript scanner in text-features.ts with fewer instructions per character (about 60% fewer under
 * valgrind on the benchmark corpus), because it reads UTF-16 units straight from memory where JavaScript pays for `charCodeAt` on every one. The text
 * is copied in with Node's native `Buffer#write`, a fraction of the scan's cost. Anywhere else (browsers,
 * Deno, edge runtimes, a `Buffer` polyfill that copies in JavaScript and would make the whole slower), when
 * WebAssembly may not be compiled, or when anything about the copy is off, the JavaScript scanner runs:
 * the count is the same either way, only the speed differs.
 */

/** Where the module expects things in its memory (see assembly/text-scanner.ts). */
const classesAt = 0;
const pairsAt = 66560;
const countsAt = 67584;
const textAt = 131072;
const pageBytes = 65536;
/** The module writes this many counts, one per text feature and the long-run tokens, as 32-bit integers. */
const featureCount = 28;
/**
 * Longer texts are scanned in JavaScript: the module's memory is never given back, and texts of megabytes are
 * rare enough that holding more than 8 MB for them is not worth it.
 */
const maximumLength = 4 * 1024 * 1024 - textAt / 2;
/** The most pages the memory grows to: room for the longest text scanned here. */
const maximumPages = (textAt + maximumLength * 2) / pageBytes;

/** The parts of the WebAssembly API this module uses (the package's types leave out the DOM and Node libraries). */
interface WebAssemblyApi {
  Memory: new (descriptor: { initial: number }) => WebAssemblyMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: { env: { memory: WebAssemblyMemory } },
  ) => { exports: Record<string, unknown> };
}

interface WebAssemblyMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** Node's `Buffer`, reduced to the calls used here. */
interface BufferApi {
  from(buffer: ArrayBuffer): BufferView;
}

interface BufferView {
  write(text: string, offset: number, encoding: 'utf16le'): number;
}

/** What a runtime may offer; each is checked before use. */
interface Runtime {
  WebAssembly?: WebAssemblyApi;
  Buffer?: BufferApi;
  atob?: (data: string) => string;
  process?: { versions?: { node?: string } };
  Deno?: unknown;
}

interface Scanner {
  memory: WebAssemblyMemory;
  measure: (length: number) => void;
  buffers: BufferApi;
  /** Views of the memory, made again when it grows (growing detaches the old buffer). */
  bytes: BufferView;
  counts: Int32Array;
}

/** `undefined` until first used; `null` once the scanner turned out not to be usable here. */
let scanner: Scanner | null | undefined;

/** A probe of the copy: Latin-1, two-byte units, lone surrogates and U+FFFF must arrive unchanged. */
const probe = 'a\u00e9\u4e0a\ud800\udfff\uffff\u0000z';

function createScanner(classes: Uint8Array, letterPairs: Uint8Array): Scanner | null {
  const runtime = globalThis as Runtime;
  const { WebAssembly: api, Buffer: buffers, atob: decode } = runtime;
  // Node and Bun (which reports a Node version too) copy strings natively; Deno reports one but does not.
  const nativeBuffer = typeof runtime.process?.versions?.node === 'string' && runtime.Deno === undefined;
  if (api === undefined || buffers === undefined || decode === undefined || !nativeBuffer) return null;
  try {
    const binary = decode(textScannerBinary);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    const memory = new api.Memory({ initial: textAt / pageBytes + 1 });
    const instance = new api.Instance(new api.Module(bytes), { env: { memory } });
    new Uint8Array(memory.buffer, classesAt, classes.length).set(classes);
    new Uint8Array(memory.buffer, pairsAt, letterPairs.length).set(letterPairs);
    const created: Scanner = {
      memory,
      measure: instance.exports.measure as (length: number) => void,
      buffers,
      bytes: buffers.from(memory.buffer),
      counts: new Int32Array(memory.buffer, countsAt, featureCount),
    };
    created.bytes.write(probe, textAt, 'utf16le');
    const copied = new Uint16Array(memory.buffer, textAt, probe.length);
    for (let index = 0; index < probe.length; index++) {
      if (copied[index] !== probe.charCodeAt(index)) return null;
    }
    return created;
  } catch {
    // Compiling WebAssembly from bytes is forbidden on some runtimes (content security policies, some edge
    // workers): the JavaScript scanner counts the same features.
    return null;
  }
}

/** Copies `text` into the module's memory, growing it when needed; `false` when that fails. */
function copyText(scanner: Scanner, text: string): boolean {
  try {
    const needed = textAt + text.length * 2;
    const size = scanner.memory.buffer.byteLength;
    if (needed > size) {
      // Doubling (up to the most it will need), so a run of ever longer texts grows the memory a few times,
      // not once per text.
      const pages = size / pageBytes;
      const neededPages = Math.ceil((needed - size) / pageBytes);
      scanner.memory.grow(Math.max(neededPages, Math.min(pages, maximumPages - pages)));
      scanner.bytes = scanner.buffers.from(scanner.memory.buffer);
      scanner.counts = new Int32Array(scanner.memory.buffer, countsAt, featureCount);
    }
    return scanner.bytes.write(text, textAt, 'utf16le') === text.length * 2;
  } catch {
    // Out of memory for a grow: the JavaScript scanner needs none.
    return false;
  }
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
  if (scanner === null || text.length > maximumLength || !copyText(scanner, text)) return false;
  scanner.measure(text.length);
  const counts = scanner.counts;
  // A buffer of only the features leaves the long-run tokens out, as the JavaScript scanner does.
  const written = Math.min(featureCount, into.length);
  for (let index = 0; index < written; index++) into[index] = counts[index]!;
  return true;
}
