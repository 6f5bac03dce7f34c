import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // test files share a worker's module cache: the generator, TypeScript and Fastify load once per
    // worker instead of once per file (tests keep no state in shared modules, and restore timers)
    isolate: false,
  },
});
