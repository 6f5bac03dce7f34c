#!/usr/bin/env node
/**
 * `node scripts/unchanged.mjs <folder> -- <command...>`: runs the command, then fails if it changed
 * the folder (a file added, removed or rewritten with other bytes), listing each difference.
 *
 * CI runs `npm run generate` under it: generated/ is committed, so regenerating a clean checkout
 * must change nothing. A commit that changes the spec, the templates or the generator without
 * the regenerated output fails there, before the tests run against the fresh output.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

const [folder, separator, ...command] = process.argv.slice(2);
if (folder === undefined || separator !== "--" || command.length === 0) {
  console.error("usage: node scripts/unchanged.mjs <folder> -- <command> [arguments...]");
  process.exit(2);
}
const root = resolve(folder);

/** Every file under the folder, by its path relative to it, with the SHA-256 of its bytes. */
function digests() {
  const files = new Map();
  if (!existsSync(root)) return files;
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path).split(sep).join("/"), createHash("sha256").update(readFileSync(path)).digest("hex"));
  }
  return files;
}

const before = digests();
const run = spawnSync(command[0], command.slice(1), { stdio: "inherit", shell: process.platform === "win32" });
if (run.error !== undefined) {
  console.error(`${command.join(" ")}: ${run.error.message}`);
  process.exit(1);
}
if (run.status !== 0) process.exit(run.status ?? 1);

const after = digests();
const changes = [];
for (const [path, digest] of after) {
  if (!before.has(path)) changes.push(`added     ${folder}/${path}`);
  else if (before.get(path) !== digest) changes.push(`rewritten ${folder}/${path}`);
}
for (const path of before.keys()) if (!after.has(path)) changes.push(`removed   ${folder}/${path}`);
if (changes.length > 0) {
  console.error(
    `\n${command.join(" ")} changed ${folder}/, which the commit should hold as it is (${changes.length} file${changes.length === 1 ? "" : "s"}):`,
  );
  for (const change of changes.sort((a, b) => a.slice(10).localeCompare(b.slice(10)))) console.error(`  ${change}`);
  console.error(`\nRun the command, check the difference and commit ${folder}/ with the change that caused it.`);
  process.exit(1);
}
console.log(`${folder}/ unchanged by ${command.join(" ")} (${after.size} files)`);
