/**
 * Unit tests of the client runtime (runtime/client/) and of the media-type rule both sides
 * share, one suite per source module, run in this one file (see server.test.ts).
 */
import "./media-types.suite.js";
import "./sequences.suite.js";
import "./client/parameters.suite.js";
import "./client/body.suite.js";
import "./client/transport.suite.js";
import "./client/auth.suite.js";
import "./client/response.suite.js";
import "./client/errors.suite.js";
import "./client/operation.suite.js";
import "./client/runtime.suite.js";
