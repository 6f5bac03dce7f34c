/**
 * The page's origin: a loopback HTTP server with the page, its bundle, MSW's service worker script
 * and PGlite's WebAssembly and data files, all taken from the consumer project's node_modules, and
 * nothing else (404). A page built by Vite is served from its output folder instead (its
 * index.html, its script and the assets it emitted, PGlite's among them). It records every path it
 * was asked for.
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

/** A running page server. */
export interface PageServer {
  readonly origin: string;
  /** every path asked for, in order */
  readonly paths: readonly string[];
  close(): Promise<void>;
}

const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>Events</title></head><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>';

/** The content types of the files a built page holds. */
const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".data": "application/octet-stream",
  ".tar.gz": "application/gzip",
};

/**
 * Serves the bundle `script` and the files the page needs from `consumer`'s node_modules, or, given
 * a folder, the page a bundler built there (its index.html at "/").
 */
export async function servePage(consumer: string, script: string | { readonly folder: string }): Promise<PageServer> {
  if (typeof script !== "string") return serveFolder(script.folder);
  const modules = join(consumer, "node_modules");
  const files: Readonly<Record<string, readonly [string, string]>> = {
    "/mockServiceWorker.js": [join(modules, "msw", "lib", "mockServiceWorker.js"), "text/javascript"],
    "/pglite.wasm": [join(modules, "@electric-sql", "pglite", "dist", "pglite.wasm"), "application/wasm"],
    "/pglite.data": [join(modules, "@electric-sql", "pglite", "dist", "pglite.data"), "application/octet-stream"],
    "/initdb.wasm": [join(modules, "@electric-sql", "pglite", "dist", "initdb.wasm"), "application/wasm"],
  };
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://page").pathname;
    paths.push(path);
    if (path === "/") return void response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    if (path === "/app.js")
      return void response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script);
    const file = files[path];
    if (file === undefined) return void response.writeHead(404).end();
    readFile(file[0]).then(
      (bytes) => response.writeHead(200, { "content-type": file[1] }).end(bytes),
      () => response.writeHead(500).end(),
    );
  });
  return listen(server, paths);
}

/** Serves the files of `folder`, index.html at "/", and nothing else (404). */
async function serveFolder(folder: string): Promise<PageServer> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://page").pathname;
    paths.push(path);
    const file = normalize(join(folder, path === "/" ? "index.html" : path));
    if (!file.startsWith(folder)) return void response.writeHead(404).end();
    readFile(file).then(
      (bytes) =>
        response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  return listen(server, paths);
}

async function listen(server: ReturnType<typeof createServer>, paths: string[]): Promise<PageServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    paths,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
