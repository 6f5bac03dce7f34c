/**
 * What a release records in the repository: the new version in package.json and
 * package-lock.json, and its section on top of CHANGELOG.md. The files are written only once the
 * registry has taken the version: each new text is first written beside its file (`<file>.release`)
 * before the publish, and moved over the file (a rename, atomic on one file system) after it. A
 * release that fails before or during the publish removes what it wrote beside them, so the
 * repository is left as it was; the registry, which the next release compares with, holds
 * nothing new either.
 */
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A file's new text, to be written when the release is published. */
export interface Pending {
  /** the path, from the repository's root */
  readonly path: string;
  readonly text: string;
}

/** The new texts of package.json and package-lock.json (when there is one) at `version`. */
export async function versionFiles(root: string, version: string): Promise<Pending[]> {
  const pending: Pending[] = [];
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  pending.push({ path: "package.json", text: json({ ...manifest, version }) });
  const lock = await readFile(join(root, "package-lock.json"), "utf8").catch(() => undefined);
  if (lock !== undefined) {
    const parsed = JSON.parse(lock) as { version?: string; packages?: Record<string, { version?: string }> };
    const own = parsed.packages?.[""];
    const packages = own === undefined ? parsed.packages : { ...parsed.packages, "": { ...own, version } };
    pending.push({ path: "package-lock.json", text: json({ ...parsed, version, packages }) });
  }
  return pending;
}

/** Files written beside their places, moved into them by `commit`, or removed by `discard`. */
export interface Prepared {
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** Writes each pending text beside its file, to be moved into place once the release is published. */
export async function prepare(root: string, pending: readonly Pending[]): Promise<Prepared> {
  const beside = (file: Pending): string => join(root, `${file.path}.release`);
  const discard = async (): Promise<void> => {
    await Promise.all(pending.map((file) => rm(beside(file), { force: true })));
  };
  try {
    for (const file of pending) await writeFile(beside(file), file.text);
  } catch (error) {
    await discard();
    throw error;
  }
  return {
    commit: async () => {
      for (const file of pending) await rename(beside(file), join(root, file.path));
    },
    discard,
  };
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
