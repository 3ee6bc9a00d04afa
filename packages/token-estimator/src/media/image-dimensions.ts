/** Width and height of an image in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

/** Bytes enough for the PNG, GIF and WebP headers. */
export const imageHeaderBytes = 32;

/**
 * Bytes of a JPEG searched for its frame header: EXIF and ICC segments come first and may take tens of
 * kilobytes; a frame header further in is not looked for (the caller then prices the largest image).
 */
export const jpegHeaderSearchBytes = 262_144;

/**
 * The size of a PNG, JPEG, GIF or WebP image, read from its header without decoding the image; `undefined`
 * when the bytes are none of these or the header is cut off.
 */
export function readImageDimensions(bytes: Uint8Array): ImageSize | undefined {
  return readPngSize(bytes) ?? readGifSize(bytes) ?? readWebpSize(bytes) ?? readJpegSize(bytes);
}

/** Whether the bytes start like a JPEG, whose frame header may lie beyond the first bytes. */
export function isJpeg(bytes: Uint8Array): boolean {
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG: the IHDR chunk follows the 8-byte signature; width and height are big-endian at 16 and 20. */
export function readPngSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24 || !startsWith(bytes, pngSignature) || ascii(bytes, 12, 4) !== 'IHDR')
    return undefined;
  return sizeOf(uint32BigEndian(bytes, 16), uint32BigEndian(bytes, 20));
}

/** GIF: the logical screen width and height, little-endian, follow the 6-byte signature. */
export function readGifSize(bytes: Uint8Array): ImageSize | undefined {
  const signature = ascii(bytes, 0, 6);
  if (bytes.length < 10 || (signature !== 'GIF87a' && signature !== 'GIF89a')) return undefined;
  return sizeOf(uint16LittleEndian(bytes, 6), uint16LittleEndian(bytes, 8));
}

/** WebP: a RIFF file whose first chunk is lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`). */
export function readWebpSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 25 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return undefined;
  const chunk = ascii(bytes, 12, 4);
  if (chunk !== 'VP8L' && bytes.length < 30) return undefined;
  if (chunk === 'VP8 ') {
    // The key frame's start code, then 14-bit width and height (the top two bits are scaling).
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
    return sizeOf(uint16LittleEndian(bytes, 26) & 0x3fff, uint16LittleEndian(bytes, 28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = uint32LittleEndian(bytes, 21);
    return sizeOf((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return sizeOf(uint24LittleEndian(bytes, 24) + 1, uint24LittleEndian(bytes, 27) + 1);
  return undefined;
}

/**
 * JPEG: walks the segments to the first start-of-frame marker (SOF0 to SOF15 but DHT, JPG and DAC, which share
 * the range), whose height and width are big-endian after the sample precision.
 */
export function readJpegSize(bytes: Uint8Array): ImageSize | undefined {
  if (!isJpeg(bytes)) return undefined;
  let offset = 2;
  while (offset + 3 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] as number;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    // Markers that stand alone, without a length: TEM, RST0..RST7, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or scan data before any frame
    const length = uint16BigEndian(bytes, offset + 2);
    const isStartOfFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      if (offset + 9 > bytes.length) return undefined;
      return sizeOf(uint16BigEndian(bytes, offset + 7), uint16BigEndian(bytes, offset + 5));
    }
    if (length < 2) return undefined;
    offset += 2 + length;
  }
  return undefined;
}

function sizeOf(width: number, height: number): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function uint16BigEndian(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] ?? 0) << 8) | (bytes[offset + 1] ?? 0);
}

function uint32BigEndian(bytes: Uint8Array, offset: number): number {
  return uint16BigEndian(bytes, offset) * 0x10000 + uint16BigEndian(bytes, offset + 2);
}

function uint16LittleEndian(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8);
}

function uint24LittleEndian(bytes: Uint8Array, offset: number): number {
  return uint16LittleEndian(bytes, offset) | ((bytes[offset + 2] ?? 0) << 16);
}

function uint32LittleEndian(bytes: Uint8Array, offset: number): number {
  return uint16LittleEndian(bytes, offset) + uint16LittleEndian(bytes, offset + 2) * 0x10000;
}
