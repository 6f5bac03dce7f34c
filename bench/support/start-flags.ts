/**
 * The options `npm start` gives node (its script's `node --flag ... scripts/run-bundled.mjs`), read
 * from package.json: the sandbox benchmarks run their measured processes, the sandbox's and the
 * baseline's alike, with them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

export const START_FLAGS: readonly string[] = (/^node((?: --\S+)*) /.exec(scripts["start"] ?? "")?.[1] ?? "")
  .split(" ")
  .filter((flag) => flag !== "");
