import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { type FileHandle, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that it is always either the old file or the complete new one: the data goes to a
 * temporary file in the same folder, is flushed to the disk, and replaces the target by a rename (atomic within
 * one file system). A symbolic link is followed, so the file it points to is replaced and the link kept; an
 * existing file keeps its permissions. A process killed mid-write leaves at most a `.<name>.<pid>.<random>.tmp`
 * file next to the target, never a partial target; on SIGINT and SIGTERM that file is removed.
 */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const target = await resolveLinks(path);
  const directory = dirname(target);
  const temporary = join(
    directory,
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const mode = await existingMode(target);
  const stopCleanup = removeOnSignal(temporary);
  try {
    let handle: FileHandle | undefined;
    try {
      handle = await open(temporary, 'wx', mode ?? 0o666);
      // The creation mode is masked by the umask; an existing file's permissions are restored exactly.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle?.close();
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

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
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
