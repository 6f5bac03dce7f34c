/**
 * The peers' API layers for the same page, generated from spec/openapi.yaml in the benchmark's
 * run: hey-api (its fetch client and TanStack Query plugin) and orval (react-query over fetch).
 * openapi-fetch and openapi-react-query generate nothing: their page names the spec's paths.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { createClient } from "@hey-api/openapi-ts";

/** Where the peers' generated code is, for the pages to import it. */
export interface PeerSources {
  /** hey-api's output folder */
  readonly heyApi: string;
  /** orval's generated module */
  readonly orval: string;
}

/** Generates both peers' code from `spec` into `dir`. */
export async function generatePeers(spec: string, dir: string): Promise<PeerSources> {
  const heyApi = join(dir, "hey-api");
  await createClient({
    input: spec,
    output: { path: heyApi },
    plugins: ["@hey-api/client-fetch", "@tanstack/react-query"],
    logs: { level: "silent" },
  });
  const orval = join(dir, "orval", "api.ts");
  await generateOrval(spec, orval, dir);
  return { heyApi, orval };
}

/**
 * orval's react-query hooks over fetch, written to `target`: in a process of its own, as its
 * command runs, whose console (a line of success, or the failure, which it reports rather than
 * throws) is read only when it wrote nothing.
 */
async function generateOrval(spec: string, target: string, cwd: string): Promise<void> {
  const options = {
    input: { target: spec },
    output: { target, client: "react-query", httpClient: "fetch", baseUrl: "/api/1_12", prettier: false },
  };
  const script = `import { generate } from "orval"; await generate(${JSON.stringify(options)}, ${JSON.stringify(cwd)});`;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    cwd,
  });
  if (!existsSync(target)) throw new Error(`orval wrote no ${target}:\n${stdout}${stderr}`);
}
