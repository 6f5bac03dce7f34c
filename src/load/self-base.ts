/**
 * Where the references of a document of several files lead, with OpenAPI 3.2's `$self`: a
 * document's `$self` (resolved against where it was read, when relative) is its base URI, so its
 * relative references resolve against it ("Relative References in API Description URIs", 3.2
 * §4.1.2.2). A URI that results is read from a file: a `file:` URI is that file; one that another
 * document read names as its `$self` is that document; one beside a document's `$self` is the file
 * beside that document's file, as the URI is beside its `$self` (the files lie as they are served).
 * A URI that no document read names is looked for among the OpenAPI 3.2 documents beside the
 * entry document (its folder and those under it): 3.2 has implementations identify a reference's
 * target by the `$self` of a document they were given ("Relative References in API Description
 * URIs"), so one whose `$self` is that URI is read, wherever it lies. Any other URI is no file of
 * the document: an error, never a guess.
 */
import { readdir } from "node:fs/promises";
import { dirname, extname, join, posix, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "yaml";
import { isRecord } from "../json-value.js";
import type { ReadFile } from "./external-schemas.js";

/** A document whose `$self` is not where it was read: the URI it names itself by, and its file. */
interface Named {
  readonly self: URL;
  readonly file: string;
}

/** The base URIs of the files of a document, and the files of the URIs they reach. */
export class SelfBases {
  readonly #named: Named[] = [];
  /** the documents beside the entry that name themselves by a `$self` (not yet read as part of the document) */
  readonly #beside: Named[] = [];

  /**
   * Reads which documents beside the entry (`file`, whose document is `document`) name themselves
   * by a `$self`, where `read` can list a folder and the entry may need them: an OpenAPI 3.2
   * document with a `$self`, or with a `$ref` to an absolute URI. A file that cannot be read or
   * parsed is passed over (it is no document of this one).
   */
  async lookBeside(file: string, document: unknown, read: ReadFile): Promise<void> {
    if (read.list === undefined || !mayNameBySelf(document)) return;
    for (const other of await read.list(dirname(file))) {
      if (other === file) continue;
      const text = await read(other).catch(() => "");
      if (!text.includes("$self")) continue;
      let self: string | undefined;
      try {
        self = selfOf(parse(text));
      } catch {
        continue;
      }
      if (self === undefined) continue;
      const url = new URL(self, pathToFileURL(other).href);
      url.hash = "";
      this.#beside.push({ self: url, file: other });
    }
  }

  /**
   * The base URI of a file's references: its `$self` when it is an OpenAPI 3.2 document that has
   * one (resolved against the file's URI), else the file's URI. Records the `$self` for `fileOf`.
   */
  register(file: string, document: unknown): string {
    const here = pathToFileURL(file).href;
    const self = selfOf(document);
    if (self === undefined) return here;
    const url = new URL(self, here);
    url.hash = "";
    const known = this.#named.some((named) => named.file === file);
    if (!known && (url.protocol !== "file:" || fileURLToPath(url) !== file)) this.#named.push({ self: url, file });
    return url.href;
  }

  /** The file a URI (its fragment aside) is read from, for a reference written in `from`; undefined when none. */
  fileOf(uri: URL, from: string): string | undefined {
    const url = new URL(uri.href);
    url.hash = "";
    if (url.protocol === "file:") return fileURLToPath(url);
    const same = [...this.#named, ...this.#beside].find((named) => named.self.href === url.href);
    if (same !== undefined) return same.file;
    const nearest = [...this.#named].sort((a, b) => Number(b.file === from) - Number(a.file === from));
    const beside = nearest.find((named) => named.self.origin === url.origin && named.self.protocol === url.protocol);
    if (beside === undefined) return undefined;
    const path = posix.relative(posix.dirname(beside.self.pathname), url.pathname);
    return resolve(dirname(beside.file), decodeURIComponent(path));
  }
}

/** A document's `$self`, where it is an OpenAPI 3.2 document that declares one. */
function selfOf(document: unknown): string | undefined {
  if (!isRecord(document) || typeof document.$self !== "string") return undefined;
  return typeof document.openapi === "string" && document.openapi.startsWith("3.2") ? document.$self : undefined;
}

/** Whether a document may name another by its `$self`: an OpenAPI 3.2 one with a `$self`, or a `$ref` to an absolute URI. */
function mayNameBySelf(document: unknown): boolean {
  if (!isRecord(document) || typeof document.openapi !== "string" || !document.openapi.startsWith("3.2")) return false;
  return typeof document.$self === "string" || /"\$ref":"[a-z][a-z0-9+.-]*:/i.test(JSON.stringify(document));
}

/** How many files beside the entry are looked at, and how deep under its folder. */
const BESIDE_FILES = 500;
const BESIDE_DEPTH = 4;

/**
 * The YAML and JSON files under a folder (BESIDE_DEPTH levels deep, the first BESIDE_FILES in
 * name order), leaving out `node_modules` and hidden folders.
 */
export async function filesUnder(folder: string): Promise<readonly string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && [".yaml", ".yml", ".json"].includes(extname(entry.name).toLowerCase()))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => {
      const folders = path
        .slice(folder.length + 1)
        .split(sep)
        .slice(0, -1);
      return folders.length <= BESIDE_DEPTH && !folders.some((name) => name === "node_modules" || name.startsWith("."));
    })
    .sort()
    .slice(0, BESIDE_FILES);
}
