// Preloaded into each measured process: at exit, append its peak resident memory (KiB) to the
// file named by BENCH_RESOURCES_FILE.
import { appendFileSync } from "node:fs";

const target = process.env.BENCH_RESOURCES_FILE;
if (target) process.on("exit", () => appendFileSync(target, `${process.resourceUsage().maxRSS}\n`));
