/**
 * Random data as tools print it: digests, ids and bytes in hexadecimal, base64 and base32, one item a line or
 * run together. Random text is where a tokenizer's merges help least, so its tokens per character are the
 * highest of any ASCII text.
 */
import type { Random } from './random.js';

const hexDigits = '0123456789abcdef';
const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function randomBytes(random: Random, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index++) bytes[index] = random.integer(0, 255);
  return bytes;
}

function hex(random: Random, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += hexDigits[random.integer(0, 15)];
  return text;
}

function lines(size: number, line: () => string): string {
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const next = line();
    parts.push(next);
    length += next.length + 1;
  }
  return parts.join('\n');
}

/** SHA-1 and SHA-256 style digests, one a line, bare or after a file name or `commit`. */
export function hexDigests(random: Random, size: number): string {
  return lines(size, () => {
    const digest = hex(random, random.chance(0.5) ? 40 : 64);
    const roll = random.next();
    if (roll < 0.4) return digest;
    if (roll < 0.7) return `commit ${digest}`;
    return `${digest}  src/${hex(random, 4)}/file-${random.integer(1, 999)}.ts`;
  });
}

/** Random hexadecimal, run together or wrapped. */
export function randomHex(random: Random, size: number): string {
  const text = hex(random, size);
  return random.chance(0.5) ? text : (text.match(/.{1,64}/g) ?? []).join('\n');
}

/** UUIDs (version 4), one a line. */
export function uuids(random: Random, size: number): string {
  return lines(size, () => {
    const value = hex(random, 32);
    const variant = hexDigits[8 + random.integer(0, 3)];
    return `${value.slice(0, 8)}-${value.slice(8, 12)}-4${value.slice(13, 16)}-${variant}${value.slice(17, 20)}-${value.slice(20)}`;
  });
}

/** Random bytes in base64, plain or wrapped at 76 like MIME. */
export function randomBase64(random: Random, size: number): string {
  const encoded = randomBytes(random, Math.ceil((size * 3) / 4)).toString('base64');
  return random.chance(0.5) ? encoded : (encoded.match(/.{1,76}/g) ?? []).join('\n');
}

/** Random bytes in base32 (RFC 4648, as in TOTP secrets and some ids), one key a line. */
export function base32Keys(random: Random, size: number): string {
  return lines(size, () => {
    let text = '';
    for (let index = 0, length = random.integer(16, 104); index < length; index++) {
      text += base32Alphabet[random.integer(0, 31)];
    }
    return text;
  });
}

function base64Url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/** JSON Web Tokens: a JSON header and claims in base64url, and a random signature. */
export function jsonWebTokens(random: Random, size: number): string {
  return lines(size, () => {
    const header = base64Url(
      Buffer.from(JSON.stringify({ alg: random.pick(['HS256', 'RS256']), typ: 'JWT' })),
    );
    const claims = base64Url(
      Buffer.from(
        JSON.stringify({
          sub: hex(random, 24),
          iat: random.integer(1_600_000_000, 1_800_000_000),
          scope: random.pick(['read', 'read write', 'admin']),
        }),
      ),
    );
    return `${header}.${claims}.${base64Url(randomBytes(random, random.chance(0.5) ? 32 : 256))}`;
  });
}
