import type { CommandPath } from './command-paths.js';

/** The file lines of an `apply_patch` envelope (`*** Begin Patch` ... `*** End Patch`). */
const patchLine = /^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$/gm;

/**
 * The files an `apply_patch` patch changes, with what it does to each: `Add File` creates, `Update File`
 * edits, `Delete File` deletes, and `Move to` after an update creates the new path and deletes the old one.
 * Empty when the text holds no patch.
 */
export function pathsOfPatch(text: string): CommandPath[] {
  if (!text.includes('*** Begin Patch')) return [];
  const found: CommandPath[] = [];
  for (const [, verb, path, movedTo] of text.matchAll(patchLine)) {
    if (movedTo !== undefined) {
      const updated = found.at(-1);
      if (updated !== undefined) updated.action = 'deleted';
      found.push({ path: movedTo, action: 'created' });
    } else if (path !== undefined) {
      const action = verb === 'Add' ? 'created' : verb === 'Delete' ? 'deleted' : 'edited';
      found.push({ path, action });
    }
  }
  return found;
}
