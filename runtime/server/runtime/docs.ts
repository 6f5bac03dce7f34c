/**
 * The API reference of a server: Swagger UI at `/docs` (from @fastify/swagger-ui, which serves
 * every asset from its own npm package) and the spec at `/openapi.json` and `/openapi.yaml`.
 *
 * Nothing is loaded from anywhere else: the pages carry a Content-Security-Policy that lets the
 * browser reach this server only (no CDN, font, validator badge or telemetry request). "Try it"
 * calls this server: the reference lists it first among the spec's servers, as the base path
 * on the same origin. `GET /` points to the reference and the base path. These routes are outside
 * the base path, so they need no API key; every
 * operation still does. A path under `/docs` that serves nothing is a 404 problem, like any other.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** The OpenAPI document as the reference needs it: its title and servers; the rest is passed on. */
export interface ReferenceDocument {
  readonly info: { readonly title: string };
  readonly servers?: readonly ReferenceServer[];
  readonly [key: string]: unknown;
}

/** A server of the document. */
export interface ReferenceServer {
  readonly url: string;
  readonly description?: string;
  readonly [key: string]: unknown;
}

/** Where the reference is served. */
export const DOCS_PATH = "/docs";

/** Same origin only: scripts, styles and images come from this server, calls go to it. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join("; ");

/** The Swagger UI layout the reference uses: a top bar with the API's title, then the operations. */
const REFERENCE_LAYOUT = "ReferenceLayout";

/** A Swagger UI plugin: called with Swagger UI's system, it answers what it adds. */
type SwaggerUiPlugin = (system: unknown) => { readonly components?: Readonly<Record<string, unknown>> };

/**
 * A Swagger UI plugin, as the page's own script runs it, that adds REFERENCE_LAYOUT: the top bar
 * shows `title` as text, with neither Swagger's logo nor the box that explores another URL
 * (Swagger UI's standalone layout has both), and under it the operations (Swagger UI's base
 * layout; @fastify/swagger-ui puts its logo into the standalone layout only). It also brings back
 * the plugin that loads the spec, the page's only plugin unless `uiConfig` names others.
 * @fastify/swagger-ui writes a function of `uiConfig` into that script as its source text, so the
 * plugin is built from source here, in browser JavaScript, with the title as a JSON literal.
 */
function referenceLayoutPlugin(title: string): SwaggerUiPlugin {
  const source = `
  const h = system.React.createElement;
  const topBar = h("div", { className: "topbar" },
    h("div", { className: "wrapper" },
      h("div", { className: "topbar-wrapper" },
        h("span", { className: "reference-title", style: { color: "#fff", fontFamily: "sans-serif", fontSize: "1.5em", fontWeight: 700 } }, ${JSON.stringify(title)}))));
  function ReferenceLayout(props) {
    const BaseLayout = props.getComponent("BaseLayout", true);
    return h("div", { className: "swagger-ui" }, topBar, h(BaseLayout));
  }
  return [SwaggerUIBundle.plugins.DownloadUrl, { components: { ${REFERENCE_LAYOUT}: ReferenceLayout } }];
`;
  return new Function("system", source) as SwaggerUiPlugin;
}

/**
 * Registers the reference and the spec routes on `app` (before it listens). `document` is the
 * OpenAPI document as generated (`openapi.json`, the package's `./spec` entry); its `x-generated`
 * mark is not served. "Try it" calls `basePath` on the page's own origin. @fastify/swagger and
 * @fastify/swagger-ui, optional peers, are loaded only here.
 */
export async function registerDocs(app: FastifyInstance, document: ReferenceDocument, basePath: string): Promise<void> {
  const { default: swagger } = await import("@fastify/swagger");
  const { default: swaggerUi } = await import("@fastify/swagger-ui");
  const spec = withoutGeneratedMark(document);
  // The generator validated the document as OpenAPI: it is handed on as one. (Its type is not
  // named here: @fastify/swagger's types would load every OpenAPI type into a program that
  // imports the server, even one that never serves the reference.)
  await app.register(swagger, { mode: "static", specification: { document: spec as never } });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: CONTENT_SECURITY_POLICY,
    transformSpecification: () => withThisServer(spec, basePath),
    uiConfig: {
      deepLinking: true,
      displayOperationId: true,
      layout: REFERENCE_LAYOUT,
      plugins: [referenceLayoutPlugin(spec.info.title)],
    },
    theme: { title: `${spec.info.title}: reference` },
  });
  app.get("/openapi.json", { schema: { hide: true } }, (_request, reply) =>
    sendSpec(reply, "application/json", JSON.stringify(spec, null, 2)),
  );
  app.get("/openapi.yaml", { schema: { hide: true } }, (_request, reply) =>
    sendSpec(reply, "application/yaml", app.swagger({ yaml: true })),
  );
  if (basePath !== "" && basePath !== "/") app.get("/", { schema: { hide: true } }, pointTo(spec.info.title, basePath));
}

/**
 * What `GET /` answers where the API has a base path: a browser (asking for HTML) is sent on to
 * the reference; anyone else gets where the reference, the API and the spec are, as JSON and as
 * `Link` headers (RFC 8631's service-doc and service-desc).
 */
function pointTo(title: string, basePath: string) {
  const links = { reference: DOCS_PATH, api: basePath, spec: "/openapi.json" };
  const link = `<${DOCS_PATH}>; rel="service-doc", </openapi.json>; rel="service-desc"`;
  return (request: FastifyRequest, reply: FastifyReply): void => {
    reply.header("link", link);
    if ((request.headers.accept ?? "").includes("text/html")) void reply.redirect(DOCS_PATH, 302);
    else void reply.header("content-type", "application/json; charset=utf-8").send({ title, ...links });
  };
}

function withoutGeneratedMark(document: ReferenceDocument): ReferenceDocument {
  const { "x-generated": _mark, ...spec } = document;
  return spec as ReferenceDocument;
}

/** The document whose first server is this one (the base path on the page's own origin). */
function withThisServer(spec: ReferenceDocument, basePath: string): ReferenceDocument {
  const here: ReferenceServer = {
    url: basePath === "" ? "/" : basePath,
    description: "This server (the reference's own origin)",
  };
  return { ...spec, servers: [here, ...(spec.servers ?? [])] };
}

function sendSpec(reply: FastifyReply, mediaType: string, text: string): void {
  reply.header("content-type", `${mediaType}; charset=utf-8`).send(text);
}
