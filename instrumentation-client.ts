import { z } from "zod";

// Runs in the browser before the dashboard's own code. zod probes whether it may compile validators
// with `new Function`; the pages' CSP refuses eval (lib/http/edge.mjs pageCsp), and although zod catches the refusal,
// the browser still reports it as a CSP violation. Validating without compiled validators is
// plenty fast for forms.
z.config({ jitless: true });
