/**
 * Where a page's bytes go: each module's share of the page's gzip, measured as the page's
 * shrinkage without it. esbuild bundles the page unminified in one file (a lazily loaded module
 * too), each module's code under a comment that names it; the page is then minified whole, and
 * without each module in turn, and gzipped. The shares do not add up to the page: gzip finds what
 * modules repeat of each other once, and each module alone is charged only what it adds.
 */
import { gzipSync } from "node:zlib";
import { build, transform } from "esbuild";

/** One module's share of a page: its path (from the root given) and the bytes it adds. */
export interface Share {
  readonly module: string;
  /** the page's gzip minus the page's gzip without this module */
  readonly gzip: number;
}

/** The bundle's code by module, as esbuild writes it unminified: a `// path` comment before each. */
export function splitModules(bundle: string): { readonly module: string; readonly code: string }[] {
  return bundle
    .split(/^(?=\/\/ \S+\.[cm]?[jt]sx?$)/m)
    .filter((part) => part.startsWith("// "))
    .map((part) => ({ module: (part.split("\n", 1)[0] as string).slice(3), code: part }));
}

/** The gzip size of `code` minified as a browser module. */
async function minifiedGzip(code: string): Promise<number> {
  const { code: minified } = await transform(code, { minify: true, format: "esm", target: "es2022" });
  return gzipSync(minified).byteLength;
}

/** Each module's share of the modules' code, the dearest first (modules that add nothing left out). */
export async function sharesOf(bundle: string): Promise<Share[]> {
  const modules = splitModules(bundle);
  const whole = await minifiedGzip(modules.map((part) => part.code).join(""));
  const shares: Share[] = [];
  for (const [index, part] of modules.entries()) {
    const rest = modules.filter((_, other) => other !== index).map((other) => other.code);
    shares.push({ module: part.module, gzip: whole - (await minifiedGzip(rest.join(""))) });
  }
  return shares.filter((share) => share.gzip > 0).sort((a, b) => b.gzip - a.gzip);
}

/**
 * The shares of the page `entry` (a file) as esbuild bundles it for the browser, in production
 * mode, `external` left out, `alias` resolving the package's entries; module paths are relative
 * to `root`.
 */
export async function pageShares(
  root: string,
  entry: string,
  alias: Readonly<Record<string, string>>,
  external: readonly string[],
): Promise<Share[]> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    alias,
    define: { "process.env.NODE_ENV": '"production"' },
    external: [...external],
    logLevel: "silent",
  });
  return sharesOf(result.outputFiles[0]?.text ?? "");
}
