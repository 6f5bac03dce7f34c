/**
 * `npm run test:release`: the releases through a registry (test/release/), with the suite's
 * settings. They build the package once per release, minutes on a shared machine, so `npm test`
 * leaves them out and CI runs this beside it (.ci/run).
 */
import { configDefaults, defineConfig } from "vitest/config";
import suite from "./vitest.config.js";

export default defineConfig({
  ...suite,
  test: { ...suite.test, include: ["test/release/registry.test.ts"], exclude: [...configDefaults.exclude] },
});
