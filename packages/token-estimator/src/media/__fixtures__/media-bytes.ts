/** Image headers and PDFs built byte by byte for known sizes and page counts. */

export function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24); // bit depth, RGBA, compression, filter, interlace
  return bytes;
}

export function gifHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(13);
  bytes.set([...'GIF89a'].map((character) => character.charCodeAt(0)));
  const view = new DataView(bytes.buffer);
  view.setUint16(6, width, true);
  view.setUint16(8, height, true);
  return bytes;
}

function riff(chunk: string, payload: number[]): Uint8Array {
  const bytes = new Uint8Array(20 + payload.length);
  const view = new DataView(bytes.buffer);
  bytes.set(ascii('RIFF'));
  view.setUint32(4, bytes.length - 8, true);
  bytes.set(ascii('WEBP'), 8);
  bytes.set(ascii(chunk), 12);
  view.setUint32(16, payload.length, true);
  bytes.set(payload, 20);
  return bytes;
}

export function webpLossyHeader(width: number, height: number): Uint8Array {
  return riff('VP8 ', [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, ...uint16(width), ...uint16(height), 0, 0]);
}

export function webpLosslessHeader(width: number, height: number): Uint8Array {
  const bits = (width - 1) | ((height - 1) << 14);
  return riff('VP8L', [
    0x2f,
    bits & 0xff,
    (bits >>> 8) & 0xff,
    (bits >>> 16) & 0xff,
    (bits >>> 24) & 0xff,
    0,
  ]);
}

export function webpExtendedHeader(width: number, height: number): Uint8Array {
  return riff('VP8X', [0x10, 0, 0, 0, ...uint24(width - 1), ...uint24(height - 1)]);
}

/**
 * A JPEG header: APP0, an APP1 segment of `exifBytes` (EXIF data comes before the frame), a quantization and a
 * Huffman table (DHT shares the SOF marker range), then a progressive frame header (SOF2).
 */
export function jpegHeader(width: number, height: number, exifBytes = 0): Uint8Array {
  const segments = [
    [0xff, 0xd8],
    [0xff, 0xe0, 0x00, 0x10, ...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
    ...(exifBytes > 0
      ? [[0xff, 0xe1, ...uint16BigEndian(exifBytes + 2), ...new Array(exifBytes).fill(0xff)]]
      : []),
    [0xff, 0xdb, 0x00, 0x04, 0x00, 0x01],
    [0xff, 0xff, 0xc4, 0x00, 0x05, 0x00, 0x00, 0x00],
    [
      0xff,
      0xc2,
      0x00,
      0x11,
      0x08,
      ...uint16BigEndian(height),
      ...uint16BigEndian(width),
      3,
      1,
      0x22,
      0,
      2,
      0x11,
      1,
    ],
    [0xff, 0xda, 0x00, 0x02],
  ];
  return Uint8Array.from(segments.flat());
}

/** A PDF of `pages` pages, with an optional stream of `paddingBytes` bytes (an embedded image, say). */
export function pdfBytes(
  pages: number,
  options: { paddingBytes?: number; compactNames?: boolean } = {},
): Uint8Array {
  const space = options.compactNames ? '' : ' ';
  const kids = Array.from({ length: pages }, (_, index) => `${index + 3} 0 R`).join(' ');
  const objects = [
    `1 0 obj\n<< /Type${space}/Catalog /Pages 2 0 R >>\nendobj\n`,
    `2 0 obj\n<< /Type${space}/Pages /Kids [${kids}] /Count ${pages} >>\nendobj\n`,
    ...Array.from(
      { length: pages },
      (_, index) =>
        `${index + 3} 0 obj\n<< /Type${space}/Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n`,
    ),
  ];
  const head = ascii(`%PDF-1.7\n${objects.join('')}`);
  const padding = options.paddingBytes ?? 0;
  const stream = ascii(`${pages + 3} 0 obj\n<< /Length ${padding} >>\nstream\n`);
  const tail = ascii('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
  const bytes = new Uint8Array(head.length + stream.length + padding + tail.length);
  bytes.set(head);
  bytes.set(stream, head.length);
  // Binary filler from a fixed linear congruential sequence: it looks like compressed data, never like a name.
  let state = 12345;
  for (let index = 0; index < padding; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[head.length + stream.length + index] = 0x80 + ((state >>> 16) & 0x7f);
  }
  bytes.set(tail, head.length + stream.length + padding);
  return bytes;
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

function ascii(text: string): number[] {
  return [...text].map((character) => character.charCodeAt(0));
}

function uint16(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff];
}

function uint24(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
}

function uint16BigEndian(value: number): number[] {
  return [(value >>> 8) & 0xff, value & 0xff];
}
