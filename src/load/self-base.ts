/**
 * Where the references of a document of several files lead, with OpenAPI 3.2's `$self`: a
 * document's `$self` (resolved against where it was read, when relative) is its base URI, so its
 * relative references resolve against it ("Relative References in API Description URIs", 3.2
 * §4.1.2.2). A URI that results is read from a file: a `file:` URI is that file; one that another
 * document read names as its `$self` is that document; one beside a document's `$self` is the file
 * beside that document's file, as the URI is beside its `$self` (the files lie as they are served).
 * Any other URI is no file of the document: an error, never a guess.
 */
import { dirname, posix, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isRecord } from "../json-value.js";

/** A document whose `$self` is not where it was read: the URI it names itself by, and its file. */
interface Named {
  readonly self: URL;
  readonly file: string;
}

/** The base URIs of the files of a document, and the files of the URIs they reach. */
export class SelfBases {
  readonly #named: Named[] = [];

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
    const same = this.#named.find((named) => named.self.href === url.href);
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
