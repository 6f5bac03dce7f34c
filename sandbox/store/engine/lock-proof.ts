/**
 * Proof that the process at the other end of a lock's socket runs as this user, asked by `npm run
 * sandbox:reset` before it sends the seed (whose keys are in plain text). The lock's socket file is
 * checked first (./lock-channel.ts: this user's, in a folder no other user can write, the same file
 * before and after the connection); the proof covers what a file's owner cannot show, the process
 * actually listening. Node offers no `SO_PEERCRED`, so the proof is a challenge only this user can
 * answer: the asker writes a random token into a new file only this user can read (0600, in a new
 * private folder beside the lock) and sends its path; the holder reads it, checking on the open
 * file that it is this user's and no one else's, and answers the token. Nothing secret crosses the
 * connection before the answer matches: the path is not secret, and the token is worth nothing
 * once the file is removed.
 */
import { randomBytes } from "node:crypto";
import { constants as fs } from "node:fs";
import { mkdtemp, open, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { removeOwnFolder, withFolder } from "./folder-walk.js";
import { ownUid } from "./owners.js";

/** The name of the challenge file in its folder, and the longest token a holder reads. */
const CHALLENGE = "challenge";
const MAX_TOKEN = 128;

/**
 * Challenges the holder of the lock `file`: `ask` sends the challenge's path and resolves with the
 * holder's answer. Resolves whether the answer is the token.
 */
export async function challengeHolder(
  file: string,
  ask: (path: string) => Promise<string | undefined>,
): Promise<boolean> {
  const folder = await mkdtemp(join(dirname(file), `.${basename(file)}-`));
  try {
    const token = randomBytes(32).toString("hex");
    const path = join(folder, CHALLENGE);
    await writeFile(path, token, { mode: 0o600, flag: "wx" });
    return (await ask(path)) === token;
  } finally {
    await withFolder(dirname(folder), (parent) => removeOwnFolder(parent, basename(folder)));
  }
}

/**
 * The holder's answer to a challenge: the token in the file at `path`, when it is a challenge of the
 * lock `file` (in a folder named as ./directory-lock.ts names its private ones, beside the lock),
 * and, on the open file, a regular file of this user that no one else can read or write.
 */
export async function answerChallenge(file: string, path: string): Promise<string | undefined> {
  const folder = dirname(path);
  const prefix = `.${basename(file)}-`;
  const ours = basename(folder).startsWith(prefix) && basename(folder).length === prefix.length + 6;
  if (basename(path) !== CHALLENGE || dirname(folder) !== dirname(file) || !ours) return undefined;
  const handle = await open(path, fs.O_RDONLY | fs.O_NOFOLLOW | fs.O_NONBLOCK).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const found = await handle.stat();
    const uid = ownUid();
    if (!found.isFile() || found.size > MAX_TOKEN || (found.mode & 0o077) !== 0) return undefined;
    if (uid !== undefined && found.uid !== uid) return undefined;
    return (await handle.readFile("latin1")).slice(0, MAX_TOKEN);
  } finally {
    await handle.close();
  }
}

/**
 * Text another process sent, made safe to print: every character outside printable ASCII written
 * as an escape (`\u001b`), so that no terminal control, line break or look-alike character is
 * printed as it came, and cut to `max` characters.
 */
export function printable(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(
    /[^\x20-\x7e…]/g,
    (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}
