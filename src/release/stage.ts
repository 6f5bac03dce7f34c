/**
 * The package as consumers get it, staged in a folder of its own: `dist/` (built from generated/),
 * the guides a consumer reads, the changelog, a README written for consumers, and a package.json
 * holding only what an installer reads. The repository's package.json also holds its development
 * scripts (a `prepare` that npm flags in a consumer's install), its dev dependencies and its
 * overrides; none of them concern a consumer, and none reach the staged one.
 */
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";

/** The fields of package.json a consumer's installer, bundler or type checker reads. */
const PUBLISHED_FIELDS = [
  "name",
  "version",
  "description",
  "keywords",
  "homepage",
  "bugs",
  "repository",
  "license",
  "author",
  "contributors",
  "funding",
  "type",
  "engines",
  "exports",
  "main",
  "types",
  "bin",
  "sideEffects",
  "dependencies",
  "peerDependencies",
  "peerDependenciesMeta",
] as const;

/** The README the package carries, written for its consumers (the repository's README is for its contributors). */
export const PACKAGE_README = "docs/package-readme.md";

/** The guides the package carries beside its README, which links to them. */
export const PACKAGE_GUIDES = ["docs/package.md", "docs/server.md", "docs/sandbox.md"] as const;

/** The changelog, at the repository's root and in the package. */
export const CHANGELOG = "CHANGELOG.md";

/** What to stage. */
export interface StageInput {
  /** the repository: its package.json, dist/ (built), docs/ and changelog */
  readonly root: string;
  /** the folder to stage into (made when missing; it should be empty) */
  readonly into: string;
  /** the version the staged package.json says */
  readonly version: string;
  /** the changelog the package carries; the repository's, when not given */
  readonly changelog?: string;
}

/** Stages the package into `input.into`; answers the staged package.json. */
export async function stagePackage(input: StageInput): Promise<Record<string, unknown>> {
  const { root, into } = input;
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  const changelog = input.changelog ?? (await readOptional(join(root, CHANGELOG)));
  await mkdir(join(into, "docs"), { recursive: true });
  // dist/.built is the build's stamp (scripts/dist.mjs), for the repository's own runs
  await cp(join(root, "dist"), join(into, "dist"), { recursive: true, filter: (path) => basename(path) !== ".built" });
  for (const guide of PACKAGE_GUIDES) await cp(join(root, guide), join(into, guide));
  await cp(join(root, PACKAGE_README), join(into, "README.md"));
  if (changelog !== undefined) await writeFile(join(into, CHANGELOG), changelog);
  const files = ["dist", "docs", ...(changelog === undefined ? [] : [CHANGELOG])];
  const published = publishedManifest(manifest, input.version, files);
  await writeFile(join(into, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
  return published;
}

/**
 * The repository's package.json as published: the fields consumers read, in the repository's
 * order, at `version`, listing the `files` staged beside the README.
 */
export function publishedManifest(
  manifest: Readonly<Record<string, unknown>>,
  version: string,
  files: readonly string[],
): Record<string, unknown> {
  const published: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(manifest))
    if ((PUBLISHED_FIELDS as readonly string[]).includes(field)) published[field] = value;
  return { ...published, version, files: [...files] };
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
