// Types for one-write-response.mjs (plain JavaScript so server.mjs can import it).
import { ServerResponse, type IncomingMessage } from "node:http";

export declare class OneWriteResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {}
