/**
 * The load benchmark's hand-written baseline (bench/support/baseline-server.ts) runs the sandbox's
 * own statements with parameters bound by hand: they must stay the sandbox's, or the benchmark
 * refuses to run. Checked here, so a change of a statement fails the suite, not the next run of
 * the benchmark.
 */
import { describe, expect, it } from "vitest";
import { checkParameters, sandboxStatementTexts } from "../../../../../bench/support/sandbox-statements.js";

describe("the load benchmark's baseline statements", () => {
  it("binds the same values in the same places as the sandbox's create and edit", async () => {
    await expect(checkParameters()).resolves.toBeUndefined();
  });

  it("runs the sandbox's texts for a create, an edit and a batch of the list", async () => {
    const texts = await sandboxStatementTexts("sandbox_x", false);
    expect(texts.create).toMatch(/^with .*insert into "sandbox_x"\."events"/s);
    const onCitus = await sandboxStatementTexts("sandbox_x", true);
    expect(onCitus.createId).toMatch(/^update "sandbox_x"\."companies"/);
    expect(onCitus.createInsert).toMatch(/^insert into "sandbox_x"\."events"/);
    expect(texts.update).toMatch(/update "sandbox_x"\."events"/);
    expect(texts.list).toMatch(/from "sandbox_x"\."events"/);
  });
});
