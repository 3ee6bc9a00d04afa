/** Identifiers, ids and zero-padded numbers shared by the corpus generators. */
import type { Random } from './random.js';
import { identifierParts } from './vocabulary.js';

export function camelCase(random: Random, parts: number): string {
  const words: string[] = [];
  for (let index = 0; index < parts; index++) {
    const part = random.pick(identifierParts);
    words.push(index === 0 ? part : part[0]!.toUpperCase() + part.slice(1));
  }
  return words.join('');
}

export function snakeCase(random: Random, parts: number): string {
  const words: string[] = [];
  for (let index = 0; index < parts; index++) words.push(random.pick(identifierParts));
  return words.join('_');
}

/** `length` random lowercase hexadecimal digits. */
export function hex(random: Random, length: number): string {
  return Array.from({ length }, () => random.integer(0, 15).toString(16)).join('');
}

export function uuid(random: Random): string {
  return `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`;
}

export function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** An ISO timestamp in 2026, with milliseconds when asked. */
export function timestamp(random: Random, milliseconds = false): string {
  const fraction = milliseconds ? `.${String(random.integer(0, 999)).padStart(3, '0')}` : '';
  return (
    `2026-${pad(random.integer(1, 12))}-${pad(random.integer(1, 28))}T${pad(random.integer(0, 23))}:` +
    `${pad(random.integer(0, 59))}:${pad(random.integer(0, 59))}${fraction}Z`
  );
}

/** Joins pieces made by `piece` with `separator` until the text is at least `size` characters long. */
export function fill(size: number, piece: () => string, separator: string): string {
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const next = piece();
    parts.push(next);
    length += next.length + separator.length;
  }
  return parts.join(separator);
}
