/**
 * A page bundled as an application bundles it, by esbuild and by Vite's production build: for the
 * browser, minified, in production mode, React and TanStack Query left external (a page pays for
 * them whichever API layer it uses). Every chunk a build writes is counted, a lazily loaded one
 * too, each gzipped on its own as a server sends it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { build as viteBuild } from "vite";

/** What a page weighs: the bytes of all its chunks, minified and gzipped, and how many there are. */
export interface Size {
  readonly minified: number;
  readonly gzip: number;
  readonly chunks: number;
}

/** A bundler: builds the page `source` (a TypeScript module written as `name` in `dir`) and weighs it. */
export interface Bundler {
  readonly name: string;
  bundle(dir: string, name: string, source: string): Promise<Size>;
}

/** The packages a page leaves to the application. */
export const EXTERNAL = ["react", "react-dom", "@tanstack/react-query", "@tanstack/query-core"];

/** The weight of a build's chunks (JavaScript files; a page of these has no other assets). */
function weigh(chunks: readonly Uint8Array[]): Size {
  return {
    minified: chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0),
    gzip: chunks.reduce((sum, chunk) => sum + gzipSync(chunk).byteLength, 0),
    chunks: chunks.length,
  };
}

async function writePage(dir: string, name: string, source: string): Promise<string> {
  const entry = join(dir, `${name}.ts`);
  await writeFile(entry, source);
  return entry;
}

/**
 * esbuild as an application calls it for the browser: ES modules split into chunks (a dynamic
 * import becomes a chunk of its own), minified, `process.env.NODE_ENV` "production".
 */
export function esbuildBundler(root: string, alias: Readonly<Record<string, string>>): Bundler {
  return {
    name: "esbuild",
    async bundle(dir, name, source) {
      const result = await build({
        entryPoints: [await writePage(dir, name, source)],
        absWorkingDir: root,
        bundle: true,
        splitting: true,
        outdir: join(dir, "out-esbuild", name),
        write: false,
        format: "esm",
        platform: "browser",
        target: "es2022",
        minify: true,
        alias,
        define: { "process.env.NODE_ENV": '"production"' },
        external: EXTERNAL,
        logLevel: "silent",
      });
      return weigh(result.outputFiles.filter((file) => file.path.endsWith(".js")).map((file) => file.contents));
    },
  };
}

/** Vite's production build with its defaults, the page as its input. */
export function viteBundler(root: string, alias: Readonly<Record<string, string>>): Bundler {
  return {
    name: "Vite",
    async bundle(dir, name, source) {
      const output = await viteBuild({
        root,
        configFile: false,
        logLevel: "silent",
        mode: "production",
        // each name exactly: a package's name would otherwise match its entries' names too
        resolve: {
          alias: Object.entries(alias).map(([name, path]) => ({
            find: new RegExp(`^${literally(name)}$`),
            replacement: path,
          })),
        },
        build: {
          write: false,
          // the page's exports are kept, as a page's rendered components are
          rollupOptions: {
            input: await writePage(dir, name, source),
            external: EXTERNAL,
            preserveEntrySignatures: "exports-only",
          },
        },
      });
      const results = Array.isArray(output) ? output : [output];
      const chunks = results.flatMap((result) =>
        "output" in result ? result.output.filter((file) => file.type === "chunk") : [],
      );
      return weigh(chunks.map((chunk) => new TextEncoder().encode(chunk.code)));
    },
  };
}

/** A text matched literally in a regular expression. */
function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
