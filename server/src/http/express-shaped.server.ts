import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * The request and response classes of one host's server, whose instances are born with the
 * prototypes its Express app gives them (`app.request`, `app.response`) once `adopt` has named the
 * app. Express re-prototypes every request and response it receives (`Object.setPrototypeOf` in
 * its `expressInit`); in V8 that call changes the objects' hidden class on every request, which
 * made a bare `node:http` answer 2.8 times dearer in CPU and kept every request's objects alive
 * into the old generation. For objects that already have that prototype the call does nothing.
 */
export function expressShaped() {
  // node:http calls `new IncomingMessage(socket)` and `new ServerResponse(req, options)`: fixed
  // parameters, so a request allocates no arguments array.
  type Construct = (this: object, first: unknown, second?: unknown) => void;
  const incoming = IncomingMessage as unknown as Construct;
  const outgoing = ServerResponse as unknown as Construct;
  function Request(this: object, socket: unknown) {
    incoming.call(this, socket);
  }
  function Response(this: object, req: unknown, options: unknown) {
    outgoing.call(this, req, options);
  }
  Request.prototype = IncomingMessage.prototype as object;
  Response.prototype = ServerResponse.prototype as object;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
    adopt(app: Express): void {
      Request.prototype = app.request;
      Response.prototype = app.response;
    },
  };
}
