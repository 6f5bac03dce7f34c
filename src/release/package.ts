/**
 * The package built and packed: dist/ built from generated/ (`npm run build`), staged with what
 * consumers get (./stage.ts), and packed by npm into a tarball, as a release publishes it and as
 * `npm run package` writes it for a consumer to install from the file.
 */
import { join } from "node:path";
import { releaseFailure } from "./failures.js";
import { type NpmPlace, npmErrorText, runNpm } from "./npm.js";
import { stagePackage } from "./stage.js";

/** What to build and where. */
export interface BuildInput {
  /** the repository */
  readonly root: string;
  /** an empty folder of the build's own, for the staged package */
  readonly scratch: string;
  /** where the tarball goes */
  readonly destination: string;
  readonly version: string;
  /** the changelog the package carries; the repository's when not given */
  readonly changelog?: string;
}

/** Builds dist/, stages the package at the input's version, and packs it. */
export async function buildPackage(input: BuildInput, place: NpmPlace): Promise<Packed> {
  const built = await runNpm(["run", "-s", "build"], input.root, place.env);
  if (built.code !== 0)
    throw releaseFailure("RELEASE_BUILD_FAILED", `npm run build failed:\n${`${built.stdout}${built.stderr}`.trim()}`);
  const staged = join(input.scratch, "package");
  await stagePackage({
    root: input.root,
    into: staged,
    version: input.version,
    ...(input.changelog === undefined ? {} : { changelog: input.changelog }),
  });
  return packFolder(staged, input.destination, place);
}

/** What `npm pack` made of a staged folder. */
export interface Packed {
  readonly tarball: string;
  readonly files: readonly string[];
  /** bytes, packed and unpacked */
  readonly size: number;
  readonly unpackedSize: number;
}

/** Packs the staged package in `folder` into `destination`. */
export async function packFolder(folder: string, destination: string, place: NpmPlace): Promise<Packed> {
  const result = await runNpm(["pack", folder, "--json", "--pack-destination", destination], place.cwd, place.env);
  if (result.code !== 0) throw releaseFailure("RELEASE_BUILD_FAILED", `npm pack failed: ${npmErrorText(result)}`);
  const [entry] = JSON.parse(result.stdout.slice(result.stdout.search(/^\[/m))) as {
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string }[];
  }[];
  if (entry === undefined) throw releaseFailure("RELEASE_BUILD_FAILED", "npm pack reported no tarball");
  return {
    tarball: join(destination, entry.filename),
    files: entry.files.map((file) => file.path).sort(),
    size: entry.size,
    unpackedSize: entry.unpackedSize,
  };
}
