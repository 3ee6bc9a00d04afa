/*
 * The package's WebAssembly modules (the feature scan, src/text-scanner.ts, and the exact count's ASCII path,
 * src/vocabulary/ascii-piece-counter.ts) run where strings are copied into their memory natively: Node and Bun,
 * by `Buffer#write`. Anywhere else (browsers, Deno, edge runtimes, a `Buffer` polyfill that copies in
 * JavaScript and would make the whole slower), when WebAssembly may not be compiled, or when anything about the
 * copy is off, their callers count in JavaScript: the counts are the same either way, only the speed differs.
 */

const pageBytes = 65536;

/** How a text is copied: each UTF-16 unit as two bytes, or as its low byte. */
export type TextEncoding = 'utf16le' | 'latin1';

/** The parts of the WebAssembly API used here (the package's types leave out the DOM and Node libraries). */
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
  write(text: string, offset: number, encoding: TextEncoding): number;
}

/** The Encoding API's `TextEncoder`, reduced to the call used here. */
interface TextEncoderApi {
  encodeInto(text: string, into: Uint8Array): { read: number; written: number };
}

/** What a runtime may offer; each is checked before use. */
interface Runtime {
  WebAssembly?: WebAssemblyApi;
  TextEncoder?: new () => TextEncoderApi;
  Buffer?: BufferApi;
  atob?: (data: string) => string;
  process?: { versions?: { node?: string } };
  Deno?: unknown;
}

/** A probe of the copy: Latin-1, two-byte units, lone surrogates and U+FFFF must arrive unchanged. */
const probe = 'a\u00e9\u4e0a\ud800\udfff\uffff\u0000z';

/** An instance of an embedded module, with its own memory. */
export class EmbeddedModule {
  readonly exports: Record<string, unknown>;
  private readonly memory: WebAssemblyMemory;
  private readonly buffers: BufferApi;
  private readonly maximumPages: number;
  private bytes: BufferView;
  private readonly encoder: TextEncoderApi | undefined;

  private constructor(
    exports: Record<string, unknown>,
    memory: WebAssemblyMemory,
    buffers: BufferApi,
    maximumBytes: number,
  ) {
    this.exports = exports;
    this.memory = memory;
    this.buffers = buffers;
    this.maximumPages = Math.ceil(maximumBytes / pageBytes);
    this.bytes = buffers.from(memory.buffer);
    const encoders = (globalThis as Runtime).TextEncoder;
    this.encoder = encoders === undefined ? undefined : new encoders();
  }

  /**
   * Compiles and instantiates a module (base64) with a memory of `initialBytes`, which may grow to
   * `maximumBytes`; `null` when this runtime cannot run it or copies strings wrongly.
   */
  static instantiate(binary: string, initialBytes: number, maximumBytes: number): EmbeddedModule | null {
    const runtime = globalThis as Runtime;
    const { WebAssembly: api, Buffer: buffers, atob: decode } = runtime;
    // Node and Bun (which reports a Node version too) copy strings natively; Deno reports one but does not.
    const nativeBuffer = typeof runtime.process?.versions?.node === 'string' && runtime.Deno === undefined;
    if (api === undefined || buffers === undefined || decode === undefined || !nativeBuffer) return null;
    try {
      const decoded = decode(binary);
      const bytes = new Uint8Array(decoded.length);
      for (let index = 0; index < decoded.length; index++) bytes[index] = decoded.charCodeAt(index);
      const memory = new api.Memory({ initial: Math.ceil(initialBytes / pageBytes) });
      const instance = new api.Instance(new api.Module(bytes), { env: { memory } });
      const module = new EmbeddedModule(instance.exports, memory, buffers, maximumBytes);
      // The probe goes where the caller lays out its tables next.
      if (!module.copyText(probe, 0)) return null;
      const copied = new Uint16Array(memory.buffer, 0, probe.length);
      for (let index = 0; index < probe.length; index++) {
        if (copied[index] !== probe.charCodeAt(index)) return null;
      }
      return module;
    } catch {
      // Compiling WebAssembly from bytes is forbidden on some runtimes (content security policies, some edge
      // workers).
      return null;
    }
  }

  /** The memory as it is now: views of it are made again after {@link copyText} grew it. */
  get buffer(): ArrayBuffer {
    return this.memory.buffer;
  }

  /**
   * Copies `text` to address `at`, a byte per character, when it is all ASCII, with room for `spareBytes` more
   * after it; `false` when it is not (the memory then holds part of it), or the copy cannot be made. One native
   * pass both copies and tells: UTF-8 writes ASCII as it is, and anything else as more bytes than characters,
   * which do not fit.
   */
  copyAscii(text: string, at: number, spareBytes: number): boolean {
    if (this.encoder === undefined || !this.reserve(at + text.length + spareBytes)) return false;
    const into = new Uint8Array(this.memory.buffer, at, text.length);
    return this.encoder.encodeInto(text, into).read === text.length;
  }

  /**
   * Copies the UTF-16 units of `text` to address `at` (by default two bytes each, with `latin1` the low byte of
   * each), growing the memory when needed, with `spareBytes` more after it; `false` when that would need more
   * than the maximum, or a grow fails.
   */
  copyText(text: string, at: number, encoding: TextEncoding = 'utf16le', spareBytes = 0): boolean {
    const unitBytes = encoding === 'utf16le' ? 2 : 1;
    if (!this.reserve(at + text.length * unitBytes + spareBytes)) return false;
    return this.bytes.write(text, at, encoding) === text.length * unitBytes;
  }

  /** Grows the memory to at least `needed` bytes; `false` when that is more than the maximum, or a grow fails. */
  private reserve(needed: number): boolean {
    const size = this.memory.buffer.byteLength;
    if (needed <= size) return true;
    const pages = size / pageBytes;
    const neededPages = Math.ceil((needed - size) / pageBytes);
    if (pages + neededPages > this.maximumPages) return false;
    try {
      // Doubling (up to the most it will need), so a run of ever longer texts grows the memory a few times, not
      // once per text.
      this.memory.grow(Math.max(neededPages, Math.min(pages, this.maximumPages - pages)));
    } catch {
      // Out of memory for a grow: the JavaScript path needs none.
      return false;
    }
    this.bytes = this.buffers.from(this.memory.buffer);
    return true;
  }
}
