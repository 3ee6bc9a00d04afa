/**
 * How binary or URL data was held in an AI SDK part before it became a core string. Core messages are plain
 * JSON, so bytes travel as base64 and URLs as their `href`; this marker, kept in the part's metadata, brings
 * back the original type on the way back.
 */
export type DataKind = 'bytes' | 'buffer' | 'array-buffer' | 'url';

interface NodeBuffer {
  isBuffer(value: unknown): boolean;
  from(bytes: Uint8Array): Uint8Array;
}

/** Node's `Buffer` when the runtime has one; other runtimes simply never produce buffers. */
function nodeBuffer(): NodeBuffer | undefined {
  return (globalThis as { Buffer?: NodeBuffer }).Buffer;
}

/** Turns AI SDK data content (base64 or URL string, bytes, buffer, URL) into a core string and its kind. */
export function dataToString(data: unknown): { data: string; kind?: DataKind } | undefined {
  if (typeof data === 'string') return { data };
  if (data instanceof URL) return { data: data.href, kind: 'url' };
  if (data instanceof ArrayBuffer) return { data: bytesToBase64(new Uint8Array(data)), kind: 'array-buffer' };
  if (data instanceof Uint8Array) {
    return { data: bytesToBase64(data), kind: nodeBuffer()?.isBuffer(data) ? 'buffer' : 'bytes' };
  }
  return undefined;
}

/**
 * The inverse of {@link dataToString}. A string that no longer parses as its kind (a strategy rewrote it) is
 * returned as the string it is.
 */
export function stringToData(data: string, kind: unknown): string | Uint8Array | ArrayBuffer | URL {
  try {
    switch (kind) {
      case 'url':
        return new URL(data);
      case 'bytes':
        return base64ToBytes(data);
      case 'buffer': {
        const bytes = base64ToBytes(data);
        return nodeBuffer()?.from(bytes) ?? bytes;
      }
      case 'array-buffer':
        return base64ToBytes(data).buffer as ArrayBuffer;
      default:
        return data;
    }
  } catch {
    return data;
  }
}

/** Base64 of bytes, in chunks so large files do not overflow the argument limit of `fromCharCode`. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) {
    binary += String.fromCharCode(...bytes.subarray(index, index + chunk));
  }
  return btoa(binary);
}

/** Bytes of a base64 string. */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
