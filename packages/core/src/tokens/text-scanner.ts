import { textScannerBinary } from './text-scanner-binary.js';

/*
 * The WebAssembly build of the text scanner (source: assembly/text-scanner.ts). It runs the same rules as
 * the JavaScript scanner in text-features.ts with about a quarter fewer instructions per character, because
 * it reads UTF-16 units straight from memory where JavaScript pays for `charCodeAt` on every one. The text
 * is copied in with `Buffer#write` (native, a fraction of the scan's cost); runtimes without `Buffer`, or
 * that refuse to compile WebAssembly, keep the JavaScript scanner.
 */

/** Where the module expects things in its memory (see assembly/text-scanner.ts). */
const classesAt = 0;
const countsAt = 65536;
const textAt = 131072;
const pageBytes = 65536;
/** The module writes this many counts, one per text feature, as 32-bit integers. */
const featureCount = 17;
/** Longer texts are scanned in JavaScript rather than growing the module's memory (never returned) past 32 MB. */
const maximumLength = 16 * 1024 * 1024 - textAt;

/** The parts of the WebAssembly API this module uses (core's types leave out the DOM and Node libraries). */
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

/** Node's `Buffer`, reduced to the two calls used here. */
interface BufferApi {
  from(buffer: ArrayBuffer): { write(text: string, offset: number, encoding: 'utf16le'): number };
}

interface Scanner {
  memory: WebAssemblyMemory;
  measure: (length: number) => void;
  /** Views of the memory, made again when it grows (growing detaches the old buffer). */
  bytes: { write(text: string, offset: number, encoding: 'utf16le'): number };
  counts: Int32Array;
}

/** `undefined` until first used; `null` once WebAssembly turned out not to be available here. */
let scanner: Scanner | null | undefined;

function createScanner(classes: Uint8Array): Scanner | null {
  const runtime = globalThis as {
    WebAssembly?: WebAssemblyApi;
    Buffer?: BufferApi;
    atob?: (data: string) => string;
  };
  const { WebAssembly: api, Buffer: buffers, atob: decode } = runtime;
  if (api === undefined || buffers === undefined || decode === undefined) return null;
  try {
    const binary = decode(textScannerBinary);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    const memory = new api.Memory({ initial: textAt / pageBytes + 1 });
    const instance = new api.Instance(new api.Module(bytes), { env: { memory } });
    new Uint8Array(memory.buffer, classesAt, classes.length).set(classes);
    const scanner: Scanner = {
      memory,
      measure: instance.exports.measure as (length: number) => void,
      bytes: buffers.from(memory.buffer),
      counts: new Int32Array(memory.buffer, countsAt, featureCount),
    };
    return scanner;
  } catch {
    // Compiling WebAssembly from bytes is forbidden on some runtimes (content security policies, some edge
    // workers): the JavaScript scanner counts the same features.
    return null;
  }
}

/**
 * Counts the features of `text` into `into` with the WebAssembly scanner and returns `true`, or returns
 * `false` (leaving `into` alone) when the scanner is not available here or the text is too long for it.
 * `classes` is the class of every UTF-16 unit, copied into the module's memory on first use.
 */
export function measureWithScanner(text: string, into: Float64Array, classes: Uint8Array): boolean {
  if (scanner === undefined) scanner = createScanner(classes);
  if (scanner === null || text.length > maximumLength) return false;
  const needed = textAt + text.length * 2;
  const size = scanner.memory.buffer.byteLength;
  if (needed > size) {
    scanner.memory.grow(Math.ceil((needed - size) / pageBytes));
    const runtime = globalThis as { Buffer?: BufferApi };
    scanner.bytes = runtime.Buffer!.from(scanner.memory.buffer);
    scanner.counts = new Int32Array(scanner.memory.buffer, countsAt, featureCount);
  }
  scanner.bytes.write(text, textAt, 'utf16le');
  scanner.measure(text.length);
  const counts = scanner.counts;
  for (let index = 0; index < featureCount; index++) into[index] = counts[index]!;
  return true;
}
