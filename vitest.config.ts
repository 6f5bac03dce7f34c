import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // one worker per core: vitest's default (cores - 1) leaves one of two cores idle, and many
    // tests wait on sockets, child processes or the browser rather than compute
    maxWorkers: Math.max(2, availableParallelism()),
    // test files share a worker's module cache: the generator, TypeScript and Fastify load once per
    // worker instead of once per file (tests keep no state in shared modules, and restore timers)
    isolate: false,
    // a test that asserts nothing fails
    expect: { requireAssertions: true },
  },
});
