/**
 * After `npm ci` (npm's `prepare`, through scripts/prepare.mjs): makes the image a new embedded
 * database starts from, so that the first `npm start` loads it rather than running `initdb`. A
 * failure stops nothing: the first start makes the image then, as it would have.
 */
import { prepareImage } from "./store/engine/engine.js";

const started = performance.now();
process.stderr.write("making the sandbox's image of a new database (once on this machine)... ");
try {
  const made = await prepareImage();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(made ? `${seconds} s\n` : "there already\n");
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`not made (${reason}): the first npm start makes it\n`);
}
