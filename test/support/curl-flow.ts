/**
 * The curl sessions the docs show, run as shown: a shell block of variable settings, `curl`
 * commands, and under each the answer it prints (`# {...}`). Each command is run by bash with
 * the settings, the docs' address replaced by the server's under test, and its answer compared,
 * as JSON, with the line under it.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { repoRoot } from "./paths.js";

const exec = promisify(execFile);

/** The docs' address of a running server, which the sessions use. */
const SHOWN_ORIGIN = "http://127.0.0.1:3000";

/** The lines of the first shell block of a Markdown file (from the repository root) that holds `needle`. */
export function shellBlock(file: string, needle: string): string[] {
  const text = readFileSync(join(repoRoot, file), "utf8");
  const block = [...text.matchAll(/```sh[^\n]*\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? "")
    .find((code) => code.includes(needle));
  if (block === undefined) throw new Error(`${file} shows no shell block holding ${needle}`);
  return block.trimEnd().split("\n");
}

/**
 * Runs each curl command of `lines` against `origin` and compares its answer with the line shown
 * under it (after `shown` adjusts it, for values of the day); answers how many it ran.
 */
export async function runCurlFlow(
  lines: readonly string[],
  origin: string,
  shown: (answer: string) => string = (answer) => answer,
): Promise<number> {
  const setup = lines.filter((line) => /^\w+=/.test(line)).map((line) => line.replaceAll(SHOWN_ORIGIN, origin));
  let commands = 0;
  for (const [index, line] of lines.entries()) {
    if (!line.startsWith("curl ")) continue;
    const answer = lines[index + 1] ?? "";
    expect(answer, `the docs show the answer of: ${line}`).toMatch(/^# /);
    const { stdout } = await exec("bash", ["-c", [...setup, line].join("\n")]);
    expect(JSON.parse(stdout), line).toEqual(JSON.parse(shown(answer.slice(2))));
    commands++;
  }
  return commands;
}
