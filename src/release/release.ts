/**
 * `npm run release`: the contract compared with the one the registry's latest version carries,
 * the version spec:diff's advice asks for (or a higher one asked for), a changelog section from
 * the report, the package built, staged, packed and published, and then the version and the
 * changelog recorded in the repository (./record.ts says when each file is written).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { reportOn } from "../diff/compare-specs.js";
import { formatMarkdown } from "../diff/format/markdown.js";
import { readAcceptedChanges } from "../diff/report/accepted.js";
import type { DiffReport } from "../diff/report/types.js";
import { loadSide, type SpecSide } from "../diff/source/load-side.js";
import { readSource } from "../diff/source/sources.js";
import { addSection, changelogSection, type SectionInput } from "./changelog.js";
import { releaseFailure } from "./failures.js";
import type { NpmPlace } from "./npm.js";
import { buildPackage, type Packed } from "./package.js";
import { prepare, versionFiles } from "./record.js";
import { latestVersion, publishedContract, publishTarball, resolveRegistry } from "./registry.js";
import { CHANGELOG } from "./stage.js";
import { type ChosenVersion, chooseVersion } from "./version.js";

/** The command's options. */
export interface ReleaseOptions {
  /** show the plan, build and pack the package, let npm check the publish, and publish and write nothing */
  readonly dryRun: boolean;
  /** a version at least as high as the advised one (the first release: instead of package.json's) */
  readonly version?: string;
  /** the registry; else package.json's publishConfig.registry, else npm's setting */
  readonly registry?: string;
  /** the spec released (generated/ must have been written from it) */
  readonly spec: string;
  /** the accepted-changes file */
  readonly accepted: string;
}

/** Where the release runs and writes what it says. */
export interface ReleaseIo {
  /** the repository */
  readonly cwd: string;
  /** the environment npm runs with (the registry's credentials are found through it) */
  readonly env?: NodeJS.ProcessEnv;
  out(text: string): void;
}

/** What a release decided: the registry, the version published before, the report since, the version, its section. */
export interface ReleasePlan {
  readonly name: string;
  readonly registry: string;
  readonly published?: string;
  readonly report?: DiffReport;
  readonly version: ChosenVersion;
  readonly section: string;
  /** the changelog with the section on top */
  readonly changelog: string;
}

/** What a release decided, and what it published (or would have). */
export interface ReleaseOutcome extends ReleasePlan {
  readonly packed: Packed;
  readonly dryRun: boolean;
}

/** Where a release works: the repository, its package.json, npm's place, a scratch folder of its own. */
interface Workspace {
  readonly root: string;
  readonly manifest: Readonly<Record<string, unknown>>;
  readonly place: NpmPlace;
  readonly scratch: string;
}

/** Runs a release. Throws GenerationFailed (RELEASE_*) when it cannot, having published and written nothing. */
export async function runRelease(options: ReleaseOptions, io: ReleaseIo): Promise<ReleaseOutcome> {
  const root = io.cwd;
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  const scratch = await mkdtemp(join(tmpdir(), "release-"));
  const place: NpmPlace = { cwd: root, ...(io.env === undefined ? {} : { env: io.env }) };
  const workspace: Workspace = { root, manifest, place, scratch };
  try {
    const plan = await planRelease(options, workspace, io);
    const { version, changelog, registry } = plan;
    const packed = await buildPackage(
      { root, scratch, destination: scratch, version: version.version, changelog },
      place,
    );
    io.out(describePackage(packed));
    io.out(await publishAndRecord(root, { packed, registry, version: version.version, changelog, options, place }));
    return { ...plan, packed, dryRun: options.dryRun };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The plan, printed as it is made: the spec loaded and checked against generated/, the registry's
 * latest version, the report since, the version and the changelog section.
 */
async function planRelease(options: ReleaseOptions, workspace: Workspace, io: ReleaseIo): Promise<ReleasePlan> {
  const { root, manifest, place } = workspace;
  const name = String(manifest.name);
  const head = await loadSide(await readSource({ kind: "file", path: options.spec }, root));
  await checkGenerated(root, head);
  const registry = await resolveRegistry(options.registry, manifest, place);
  const published = await latestVersion(name, registry, place);
  io.out(`Registry: ${registry}\nPublished: ${published === undefined ? "nothing yet" : `${name}@${published}`}\n\n`);
  const report =
    published === undefined ? undefined : await compare(options, head, { ...workspace, name, registry, published });
  const version = chooseVersion({
    ...(published === undefined ? {} : { published }),
    ...(report === undefined ? {} : { report }),
    ...(options.version === undefined ? {} : { requested: options.version }),
    current: String(manifest.version),
  });
  if (report !== undefined) io.out(`${formatMarkdown(report)}\n`);
  io.out(`Version: ${version.version} (${version.reason})\n\n`);
  const section = changelogSection({
    version: version.version,
    ...(published === undefined ? {} : { previous: published, report }),
    date: new Date().toISOString().slice(0, 10),
    contract: contractOf(head),
  });
  io.out(`${CHANGELOG}, the new section:\n\n${section}\n`);
  const changelog = addSection(await readFile(join(root, CHANGELOG), "utf8").catch(() => undefined), section);
  return { name, registry, ...(published === undefined ? {} : { published, report }), version, section, changelog };
}

/** The contract's title, version and operations, for a first release's section. */
function contractOf(head: SpecSide): SectionInput["contract"] {
  const { title, version } = head.model.source;
  return { title, version, operations: head.model.operations.map((operation) => operation.id) };
}

/** The package's files and size, for the plan. */
function describePackage(packed: Packed): string {
  const files = packed.files.map((file) => `  ${file}`).join("\n");
  return `The package: ${packed.files.length} files, ${packed.size} bytes packed (${packed.unpackedSize} unpacked)\n${files}\n\n`;
}

/** What a comparison with the registry needs. */
interface Against extends Workspace {
  readonly name: string;
  readonly registry: string;
  readonly published: string;
}

/** The report between the published version's contract and the spec released. */
async function compare(options: ReleaseOptions, head: SpecSide, against: Against): Promise<DiffReport> {
  const text = await publishedContract(against.name, against.published, against.registry, {
    ...against.place,
    scratch: against.scratch,
  });
  const base = await loadSide({ name: `${against.name}@${against.published}`, text });
  const accepted = await readAcceptedChanges(resolve(against.root, options.accepted));
  return reportOn(base, head, { accepted, acceptedFile: options.accepted });
}

/** Refuses a release whose generated/ (what the package is built from) was not written from the spec released. */
async function checkGenerated(root: string, head: SpecSide): Promise<void> {
  const file = join(root, "generated", "openapi.json");
  const text = await readFile(file, "utf8").catch(() => undefined);
  const { "x-generated": _note, ...generated } =
    text === undefined ? {} : (JSON.parse(text) as Record<string, unknown>);
  if (text === undefined || !isDeepStrictEqual(generated, head.loaded.document))
    throw releaseFailure(
      "RELEASE_OUT_OF_DATE",
      `generated/ was not written from ${head.name} as it is now, so the package would not hold the contract released`,
      file,
    );
}

/** What the publish needs. */
interface Publication {
  readonly packed: Packed;
  readonly registry: string;
  readonly version: string;
  readonly changelog: string;
  readonly options: ReleaseOptions;
  readonly place: NpmPlace;
}

/**
 * Publishes the tarball, then moves the version and the changelog into the repository's files;
 * a dry run lets npm check the publish and writes nothing. Answers what it did, to print.
 */
async function publishAndRecord(root: string, publication: Publication): Promise<string> {
  const { packed, registry, version, options, place } = publication;
  if (options.dryRun) {
    const checked = await publishTarball(packed.tarball, registry, { ...place, dryRun: true });
    return `${warningsOf(checked)}Dry run: npm checked the publish of ${version} to ${registry}; nothing was published and no file was written.\n`;
  }
  const pending = [...(await versionFiles(root, version)), { path: CHANGELOG, text: publication.changelog }];
  const prepared = await prepare(root, pending);
  let published: string;
  try {
    published = await publishTarball(packed.tarball, registry, { ...place, dryRun: false });
  } catch (error) {
    await prepared.discard();
    throw error;
  }
  await prepared.commit();
  const written = pending.map((file) => file.path);
  const commit = `git add ${written.join(" ")} && git commit -m "Release ${version}"`;
  return `${warningsOf(published)}Published ${version} to ${registry}.\nWritten: ${written.join(", ")} (commit them: ${commit}).\n`;
}

/** npm's warnings in what it printed (a package.json it corrected, say), each on a line, for the user to see. */
function warningsOf(output: string): string {
  const warnings = output.split("\n").filter((line) => /^npm warn/i.test(line));
  return warnings.length === 0 ? "" : `${warnings.join("\n")}\n`;
}
