/**
 * vitest's default reporter, each test file's line without its tier's label: ` ✓ test/system/
 * sandbox/kill.test.ts (1 test) 4279ms`, the form a CI system reads a file's count from, where the
 * label (` system `, in colour) would stand between the mark and the path. The path names the tier
 * already (`test/<tier>/…`, vitest.config.ts), so nothing is lost; a failed test's own lines keep
 * it.
 */
import type { TestCase, TestModule, TestSuite } from "vitest/node";
import { DefaultReporter } from "vitest/reporters";

export default class FileLines extends DefaultReporter {
  protected override getEntityPrefix(entity: TestCase | TestModule | TestSuite): string {
    // a type-checking file keeps vitest's own prefix, its ` TS ` label with it
    return entity.meta().typecheck ? super.getEntityPrefix(entity) : this.getStateSymbol(entity);
  }
}
