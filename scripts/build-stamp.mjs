/**
 * Builds that run only when a source changed (lib/ for the generator, dist/ for the package): the
 * newest modification time among the sources, and the time of the last successful build, which a
 * stamp file records.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The latest modification time, in milliseconds, of the files given and of the folders given with
 * everything in them (folders count, so a deleted file counts); `skip` leaves a path out.
 */
export function newestSource(files, folders, skip = () => false) {
  let newest = Math.max(...files.map((file) => statSync(file).mtimeMs));
  for (const folder of folders) {
    newest = Math.max(newest, statSync(folder).mtimeMs);
    for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
      const path = join(entry.parentPath, entry.name);
      if (!skip(path)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/** The time of the last successful build (the stamp's), or -1 when there was none. */
export function builtAt(stamp) {
  try {
    return statSync(stamp).mtimeMs;
  } catch {
    return -1;
  }
}
