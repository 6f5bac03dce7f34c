/** Base URI given to a document that declares no `$id`; never fetched, only used to resolve against. */
export const DEFAULT_BASE_URI = "https://schema.invalid/document.json";

/** Resolves a URI reference against a base; `undefined` when either is malformed. */
export function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

/** Splits an absolute URI at its fragment: [URI without fragment, fragment without "#"]. */
export function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf("#");
  return hash < 0 ? [uri, ""] : [uri.slice(0, hash), uri.slice(hash + 1)];
}

/** The fragment as a JSON pointer (percent-decoded), or `undefined` when it is a plain name. */
export function fragmentPointer(fragment: string): string | undefined {
  if (fragment !== "" && !fragment.startsWith("/")) return undefined;
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}
