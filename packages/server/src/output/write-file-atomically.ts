import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { type FileHandle, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type FileIdentity, isUnchanged } from './file-identity.js';
import { changedFileError } from './output-file-error.js';

/** What {@link writeFileAtomically} checks before it replaces the file. */
export interface AtomicWriteOptions {
  /**
   * The state the file had when it was read (`--in-place`): if it is not in that state right before the
   * rename (another run or an editor wrote it meanwhile), nothing is written and an {@link OutputFileError}
   * with the problem `changed` is thrown, so no one's change is overwritten with a result of older content.
   */
  unchanged?: FileIdentity;
}

/**
 * Writes a regular file so that it is always either the old file or the complete new one: the data goes to a
 * temporary file in the same folder, is flushed to the disk, and replaces the target by a rename (atomic within
 * one file system). A symbolic link is followed, so the file it points to is replaced and the link kept; an
 * existing file keeps its permissions and, where the process may give it (root, or the owner within their own
 * groups), its owner and group. A process killed mid-write leaves at most a `.<name>.<pid>.<random>.tmp` file
 * next to the target, never a partial target; on SIGINT and SIGTERM that file is removed. Only for regular files:
 * a rename over a device or a FIFO would replace it with a regular file (see `writeOutputFile`).
 */
export async function writeFileAtomically(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const target = await resolveLinks(path);
  const directory = dirname(target);
  const temporary = join(
    directory,
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const existing = await existingFile(target);
  const stopCleanup = removeOnSignal(temporary);
  try {
    let handle: FileHandle | undefined;
    try {
      handle = await open(temporary, 'wx', existing?.mode ?? 0o666);
      if (existing !== undefined) {
        const created = await handle.stat();
        // Owner first: changing the owner clears the set-user-id and set-group-id bits the mode restores.
        if (created.uid !== existing.uid || created.gid !== existing.gid) {
          await handle.chown(existing.uid, existing.gid);
        }
        // The creation mode is masked by the umask; an existing file's permissions are restored exactly.
        await handle.chmod(existing.mode);
      }
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle?.close();
    }
    // As late as it can be: between this check and the rename there is no await on anything slow.
    if (options.unchanged !== undefined && !(await isUnchanged(target, options.unchanged))) {
      throw changedFileError(path);
    }
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  } finally {
    stopCleanup();
  }
  await syncDirectory(directory);
}

/** The path with symbolic links resolved, for a file that exists; the path itself otherwise. */
async function resolveLinks(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

async function existingFile(path: string): Promise<{ mode: number; uid: number; gid: number } | undefined> {
  try {
    const { mode, uid, gid } = await stat(path);
    return { mode: mode & 0o7777, uid, gid };
  } catch {
    return undefined;
  }
}

/** Flushes the folder entry, so the rename itself survives a crash. Not every platform can open a folder. */
async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Best effort: the file's own data is already on the disk.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Removes the temporary file when the process is interrupted while writing, then lets the signal do what it
 * would have done (end the process, or reach the other listeners). Returns the function that stops listening.
 */
function removeOnSignal(temporary: string): () => void {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    try {
      unlinkSync(temporary);
    } catch {
      // Not created yet, or already renamed.
    }
    process.kill(process.pid, signal);
  };
  const stop = () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
  for (const signal of signals) process.once(signal, onSignal);
  return stop;
}
