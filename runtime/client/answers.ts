/**
 * Reading success answers of other media types than JSON: the route of an operation with an
 * answer of another kind (text, bytes) names this reader (`Route.encoders`), which reads a body by
 * the content the route declares for its status and the answer's media type (its essence, then
 * its kind, then the first declared), or by the media type alone for a status it does not declare
 * (text when there is none, a Blob for bytes). A page whose operations answer only JSON does not
 * bundle it: their engine reads JSON, or text for an undeclared status whose media type is not JSON.
 */
import { bodyKindOf, mediaTypeEssence } from "../media-types.js";
import type { AnswerReader, BodyKind, RouteContent } from "../route-types.js";

/** How an answer's body is read: the declared content its media type matches, else its own kind. */
function kindOf(response: Response, contents: readonly RouteContent[] | undefined): BodyKind {
  const actual = response.headers.get("content-type");
  const essence = mediaEssence(actual);
  const kind = actual === null || essence === "" ? "text" : bodyKindOf(actual);
  const match =
    contents?.find((c) => mediaEssence(c.mediaType) === essence) ??
    contents?.find((c) => c.kind === kind) ??
    contents?.[0];
  return match?.kind ?? kind;
}

function mediaEssence(mediaType: string | null): string {
  return mediaType === null ? "" : mediaTypeEssence(mediaType);
}

/** The answer reader the route of each operation with answers other than JSON names. */
export const answerReader: AnswerReader = { kindOf };
