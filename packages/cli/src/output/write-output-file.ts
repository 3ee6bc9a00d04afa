import { constants } from 'node:fs';
import { access, type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  type AtomicWriteOptions,
  changedFileError,
  isUnchanged,
  writeFileAtomically,
} from '@compaction/server';
import {
  assertWritable,
  currentUser,
  inspectOutputTarget,
  type OutputTarget,
  type WritingUser,
} from './output-target.js';

/**
 * Writes an output file the way a user expects of `-o FILE` and `--in-place`: as the shell's `>` would, but
 * atomically where that is possible.
 * - A regular file (or a link to one, which stays a link) is replaced atomically, keeping its owner and mode
 *   (see {@link writeFileAtomically}); a new file, also the missing target of a dangling link, is created so.
 * - A device, FIFO or socket is written in place, like `>`: `/dev/null` stays the device, a FIFO's reader gets
 *   the output (the write waits for a reader, as `>` does).
 * - An existing file the user may not write is refused (see `writeRefusal`), as `>` would refuse it.
 * - A regular file that cannot be replaced while keeping what `>` keeps (its folder is not writable by the
 *   user, or the user may not give the new file its owner) is written in place, as `>` writes it.
 * `unchanged` (`--in-place`) refuses to write when the file is no longer in the state it was read in.
 */
export async function writeOutputFile(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const target = await inspectOutputTarget(path);
  const user = currentUser();
  assertWritable(path, target, user);
  if (target.kind === 'special' || !(await canReplace(target, user))) {
    if (options.unchanged !== undefined && !(await isUnchanged(target.path, options.unchanged))) {
      throw changedFileError(path);
    }
    await writeInPlace(target.path, data);
    return;
  }
  await writeFileAtomically(target.path, data, options);
}

/** Whether a rename can replace the file and keep what `>` keeps: the folder is writable, the owner kept. */
async function canReplace(target: OutputTarget, user: WritingUser | undefined): Promise<boolean> {
  if (target.kind === 'special') return false;
  if (target.kind === 'regular' && user !== undefined && user.uid !== 0) {
    const { uid, gid } = target.stats;
    const keepsOwner = uid === user.uid && (gid === user.gid || user.groups.includes(gid));
    if (!keepsOwner) return false;
  }
  try {
    await access(dirname(target.path), constants.W_OK);
    return true;
  } catch {
    // A new file needs the folder: the error of creating it there is the clear one.
    return target.kind === 'new';
  }
}

/** Opens, truncates and writes, as `>` does: the only way to write a device or a FIFO. */
async function writeInPlace(path: string, data: string | Uint8Array): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'w');
    await handle.writeFile(data);
  } finally {
    await handle?.close();
  }
}
