import fc from 'fast-check';

/** The shortest text the bound is held on. */
export const boundedLength = 1000;

const hexDigits = '0123456789abcdef'.split('');
const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.split('');

const hexString = (minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.constantFrom(...hexDigits), { minLength, maxLength }))
    .map((digits) => digits.join(''));

// Without fast-check's bias toward small values: data as tools print it (hashes, keys, encrypted or compressed
// bytes) is uniform, while biased draws are mostly zeros, whose base64 (`AAAA…`) the README lists as not held.
const bytes = (minLength: number, maxLength: number) =>
  fc.noBias(fc.uint8Array({ minLength, maxLength })).map((array) => Buffer.from(array));

/** At least enough items, one a line, for {@link boundedLength} characters. */
const lines = (item: fc.Arbitrary<string>, itemLength: number) =>
  fc
    .array(item, {
      minLength: Math.ceil(boundedLength / itemLength),
      maxLength: 3 * Math.ceil(boundedLength / itemLength),
    })
    .map((items) => items.join('\n'));

const uuid = hexString(32, 32).map(
  (value) =>
    `${value.slice(0, 8)}-${value.slice(8, 12)}-4${value.slice(13, 16)}-a${value.slice(17, 20)}-${value.slice(20)}`,
);

const jsonWebToken = fc
  .tuple(fc.string({ maxLength: 40 }), fc.nat(), bytes(32, 300))
  .map(
    ([subject, issuedAt, signature]) =>
      `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.` +
      `${Buffer.from(JSON.stringify({ sub: subject, iat: issuedAt })).toString('base64url')}.` +
      signature.toString('base64url'),
  );

const base32Key = fc
  .noBias(fc.array(fc.constantFrom(...base32Alphabet), { minLength: 16, maxLength: 104 }))
  .map((letters) => letters.join(''));

/**
 * Random data as tools print it, at least {@link boundedLength} characters of one kind: hexadecimal run together,
 * SHA-1 and SHA-256 digests and UUIDs one a line, random bytes in base64 (plain and wrapped at 76), base32 keys,
 * JSON Web Tokens.
 */
export const randomData = fc.oneof(
  hexString(boundedLength, 4 * boundedLength),
  lines(hexString(40, 40), 41),
  lines(hexString(64, 64), 65),
  lines(uuid, 37),
  bytes(boundedLength, 3 * boundedLength).map((data) => data.toString('base64')),
  bytes(boundedLength, 3 * boundedLength).map((data) =>
    (data.toString('base64').match(/.{1,76}/g) ?? []).join('\n'),
  ),
  lines(base32Key, 17),
  lines(jsonWebToken, 100),
);
