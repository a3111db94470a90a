import type { IncomingMessage, ServerResponse } from "node:http";

export function compressWhenAccepted(req: IncomingMessage, res: ServerResponse): void;
