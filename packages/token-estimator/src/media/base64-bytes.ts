/** The base64 payload of inline data: the part after the comma of a `data:` URL, or the string itself. */
export function base64Payload(data: string): string {
  if (!data.startsWith('data:')) return data;
  const comma = data.indexOf(',');
  return comma < 0 ? '' : data.slice(comma + 1);
}

/** The number of bytes a base64 string decodes to, without decoding it. */
export function base64ByteLength(base64: string): number {
  const trimmed = base64.trimEnd();
  const padding = trimmed.endsWith('==') ? 2 : trimmed.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((trimmed.length * 3) / 4) - padding);
}

/**
 * Decodes at most the first `maxBytes` bytes of a base64 string: headers sit at the start of a file, so a large
 * image is never decoded whole. `undefined` when the text is not base64.
 */
export function decodeBase64Prefix(base64: string, maxBytes: number): Uint8Array | undefined {
  // Four characters carry three bytes; line breaks of MIME-style base64 are dropped first.
  const characters = Math.ceil(maxBytes / 3) * 4;
  const prefix = base64.slice(0, characters + characters / 8).replace(/\s+/g, '');
  const whole = prefix.slice(0, Math.min(characters, prefix.length - (prefix.length % 4)));
  let binary: string;
  try {
    binary = atob(whole);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(Math.min(binary.length, maxBytes));
  for (let index = 0; index < bytes.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
