/**
 * Sections of bench/README.md that the benches write from their saved results, between
 * `<!-- name:start -->` and `<!-- name:end -->`: figures are never copied by hand, so they cannot drift from
 * what was measured.
 */
import { resolve } from 'node:path';

export const readmePath = resolve(import.meta.dirname, '../../README.md');

const start = (name: string) => `<!-- ${name}:start -->`;
const end = (name: string) => `<!-- ${name}:end -->`;

/** The text between the markers of section `name`, without the newlines next to the markers. */
export function generatedSection(text: string, name: string): string {
  const [from, to] = markerPositions(text, name);
  return text
    .slice(from + start(name).length, to)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}

/** `text` with the section `name` between its markers replaced by `content`. */
export function withGeneratedSection(text: string, name: string, content: string): string {
  const [from, to] = markerPositions(text, name);
  return `${text.slice(0, from + start(name).length)}\n${content}\n${text.slice(to)}`;
}

function markerPositions(text: string, name: string): [number, number] {
  const from = text.indexOf(start(name));
  const to = text.indexOf(end(name));
  if (from === -1 || to === -1 || to < from) {
    throw new Error(`bench/README.md has no section between ${start(name)} and ${end(name)}`);
  }
  return [from, to];
}
