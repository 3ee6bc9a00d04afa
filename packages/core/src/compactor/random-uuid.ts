import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/** The part of Web Crypto an id needs: `randomUUID` where the runtime has it, `getRandomValues` everywhere. */
export interface UUIDSource {
  randomUUID?: () => string;
  getRandomValues?: <Values extends Uint8Array>(values: Values) => Values;
}

/**
 * A random RFC 4122 version 4 UUID. Browsers define `crypto.randomUUID` only in secure contexts (HTTPS or
 * loopback), so a page served over plain HTTP has `getRandomValues` alone: the same layout is built from it.
 */
export function randomUUID(source: UUIDSource | undefined = globalThis.crypto): string {
  if (typeof source?.randomUUID === 'function') return source.randomUUID();
  if (typeof source?.getRandomValues !== 'function') {
    throw new InvalidOptionsError({
      subject: 'createCompactor',
      issues: [
        {
          path: 'generateId',
          message: 'this runtime has neither crypto.randomUUID nor crypto.getRandomValues; pass generateId',
        },
      ],
    });
  }
  const bytes = source.getRandomValues(new Uint8Array(16));
  // Version 4 in the high nibble of byte 6, the RFC 4122 variant (10xx) in the high bits of byte 8.
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
