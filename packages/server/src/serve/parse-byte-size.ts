import { usageError } from '../errors/cli-error.js';

/** Parses a byte size flag: `1048576`, `512kb`, `10mb`, `1gb`. */
export function parseByteSize(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|k|mb|m|gb|g)?$/i.exec(text.trim());
  if (match === null) throw usageError(`${flag} must be a size such as 512kb or 10mb, got "${text}"`);
  const unit = (match[2] ?? 'b').toLowerCase()[0];
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  const bytes = Math.floor(Number(match[1]) * factor);
  if (bytes < 1) throw usageError(`${flag} must be at least 1 byte`);
  return bytes;
}
