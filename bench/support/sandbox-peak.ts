/**
 * The probe of `bench/sandbox-majors.ts`: one `createSandbox()` in memory, as a consumer's test
 * would make it, then closed. Prints, as one JSON line, how long it took and the process's peak
 * resident memory (its maxRSS) in MiB. It runs bundled (scripts/run-bundled.mjs --prepare first),
 * so that no TypeScript loader's memory is counted.
 */
import { createSandbox } from "../../sandbox/index.js";

const started = performance.now();
const sandbox = await createSandbox();
const ms = performance.now() - started;
await sandbox.close();
process.stdout.write(`${JSON.stringify({ ms, peakMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
