import { createServer, type AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server for tests (vitest and Playwright): it listens on 127.0.0.1 on a free port, takes
// any login and keeps every message it receives, parsed, so a test reads what the service sent.

export type ReceivedMail = { to: string[]; from: string; subject: string; text: string; raw: ParsedMail };

export type SmtpSink = {
  /** smtp://user:password@127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The first message to `to` (and matching `subject`, when given) that arrives, waiting up to `timeoutMs`. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: addressesOf(parsed.to),
            from: addressesOf(parsed.from)[0] ?? "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            raw: parsed,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://test:secret@127.0.0.1:${port}`,
    received,
    async waitFor(to, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(
          (mail) => mail.to.includes(to.toLowerCase()) && (!subject || subject.test(mail.subject)),
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no e-mail to ${to} arrived in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function addressesOf(field: ParsedMail["to"] | ParsedMail["from"]): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((entry) => entry.value.map((address) => (address.address ?? "").toLowerCase()));
}

/** The first http(s) link in a message's text. */
export function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in the e-mail "${mail.subject}"`);
  return match[0];
}

/** A port nothing listens on right now, for an SMTP server that cannot be reached. */
export async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
