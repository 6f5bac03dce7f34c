/**
 * `npm run test:release`: the releases through a registry (test/system/release/), with the suite's
 * settings. They build the package once per release, minutes on a shared machine, so `npm test`
 * leaves them out and CI runs this beside it (.ci/run).
 */
import { configDefaults, defineConfig } from "vitest/config";
import suite from "./vitest.config.js";

// one project of its own, not the suite's tiers
const { projects: _tiers, ...settings } = suite.test ?? {};

export default defineConfig({
  ...suite,
  test: { ...settings, include: ["test/system/release/registry.test.ts"], exclude: [...configDefaults.exclude] },
});
