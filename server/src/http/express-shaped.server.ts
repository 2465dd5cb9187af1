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
  type Construct = (this: object, ...args: unknown[]) => void;
  const incoming = IncomingMessage as unknown as Construct;
  const outgoing = ServerResponse as unknown as Construct;
  function Request(this: object, ...args: unknown[]) {
    incoming.apply(this, args);
  }
  function Response(this: object, ...args: unknown[]) {
    outgoing.apply(this, args);
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
