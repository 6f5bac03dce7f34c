/**
 * The registry a release reads and writes, through npm: which registry it is, the version it
 * calls latest, the contract that version carries (its `dist/openapi.json`, read from the
 * tarball the registry serves, not from git), and the publish itself.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { releaseFailure } from "./failures.js";
import { type NpmPlace, type NpmResult, npmErrorCode, npmErrorText, runNpm } from "./npm.js";

const execFileAsync = promisify(execFile);

/**
 * The registry to release to: `--registry`, else package.json's `publishConfig.registry`, else
 * npm's own `registry` setting (its default is npm's public registry), always ending in "/".
 */
export async function resolveRegistry(
  explicit: string | undefined,
  manifest: Readonly<Record<string, unknown>>,
  place: NpmPlace,
): Promise<string> {
  const configured = (manifest.publishConfig as { registry?: unknown } | undefined)?.registry;
  const chosen =
    explicit ??
    (typeof configured === "string" ? configured : (await npm(["config", "get", "registry"], place)).stdout.trim());
  try {
    const url = new URL(chosen);
    return url.href.endsWith("/") ? url.href : `${url.href}/`;
  } catch {
    throw releaseFailure("RELEASE_REGISTRY", `the registry ${JSON.stringify(chosen)} is not a URL`);
  }
}

/** The version the registry tags latest, or undefined when it has never seen the package. */
export async function latestVersion(name: string, registry: string, place: NpmPlace): Promise<string | undefined> {
  const result = await npm(["view", name, "dist-tags.latest", "--json", "--registry", registry], place);
  if (result.code !== 0) {
    if (npmErrorCode(result) === "E404") return undefined;
    throw registryFailure(`the registry ${registry} could not be asked for ${name}`, result);
  }
  const text = result.stdout.trim();
  if (text === "") return undefined;
  const latest = JSON.parse(text) as unknown;
  return typeof latest === "string" ? latest : undefined;
}

/**
 * The contract a published version carries: its `dist/openapi.json`, from the tarball npm fetches
 * into `scratch`. The `x-generated` note is left out: it is the generator's, not the contract's.
 */
export async function publishedContract(
  name: string,
  version: string,
  registry: string,
  place: NpmPlace & { readonly scratch: string },
): Promise<string> {
  const spec = `${name}@${version}`;
  const packed = await npm(
    ["pack", spec, "--json", "--pack-destination", place.scratch, "--registry", registry],
    place,
  );
  if (packed.code !== 0) throw registryFailure(`${spec} could not be fetched from ${registry}`, packed);
  const [entry] = JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[/m))) as { filename: string }[];
  const tarball = join(place.scratch, entry?.filename ?? "");
  const member = "package/dist/openapi.json";
  try {
    await execFileAsync("tar", ["-xzf", tarball, "-C", place.scratch, member]);
    const { "x-generated": _note, ...contract } = JSON.parse(
      await readFile(join(place.scratch, member), "utf8"),
    ) as Record<string, unknown>;
    return JSON.stringify(contract, null, 2);
  } catch (error) {
    throw releaseFailure(
      "RELEASE_PUBLISHED_INVALID",
      `${spec}, the registry's latest version, holds no readable dist/openapi.json (${(error as Error).message.split("\n")[0]})`,
    );
  }
}

/** Publishes a tarball to the registry under the dist-tag latest; with `dryRun`, npm checks it and uploads nothing. */
export async function publishTarball(
  tarball: string,
  registry: string,
  place: NpmPlace & { readonly dryRun: boolean },
): Promise<string> {
  const args = ["publish", tarball, "--registry", registry, "--tag", "latest", ...(place.dryRun ? ["--dry-run"] : [])];
  const result = await npm(args, place);
  if (result.code !== 0)
    throw releaseFailure("RELEASE_PUBLISH_FAILED", `npm publish to ${registry} failed: ${npmErrorText(result)}`);
  return `${result.stdout}${result.stderr}`;
}

function npm(args: readonly string[], place: NpmPlace): Promise<NpmResult> {
  return runNpm(args, place.cwd, place.env);
}

function registryFailure(what: string, result: NpmResult): Error {
  return releaseFailure("RELEASE_REGISTRY", `${what}: ${npmErrorText(result)}`);
}
