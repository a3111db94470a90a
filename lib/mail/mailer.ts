import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";

// E-mail over SMTP (docs/operations.md, E-mail): SMTP_URL and MAIL_FROM. Without SMTP_URL
// nothing is sent and every link stays with the admin who made it, as before. A message is sent after
// the change it reports has committed, never inside its transaction, and a failed send never fails the
// request: the caller learns `false` and says so; the log names the kind of message and the error only,
// never its body (which holds a one-time link).

/** One message: plain text, to one address. */
export type Mail = {
  to: string;
  subject: string;
  text: string;
  /** What the message is, for the log ("invitation", "password reset"); never its content. */
  kind: string;
};

/** What sends mail: SMTP in the service, anything with this shape in a test. */
export type Mailer = { send(mail: Omit<Mail, "kind">): Promise<void> };

// Seconds, not the library's minutes: a request waits for its e-mail before it answers.
const TIMEOUT_MS = 10_000;

let cached: { url: string; from: string; mailer: Mailer } | undefined;

function smtpMailer(url: string, from: string): Mailer {
  const transport: Transporter = nodemailer.createTransport({
    url,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
  };
}

/** The configured mailer, or null when SMTP_URL is unset. Re-made when the settings change (tests). */
export function mailer(): Mailer | null {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL || !MAIL_FROM) return null;
  if (cached?.url !== SMTP_URL || cached.from !== MAIL_FROM) {
    cached = { url: SMTP_URL, from: MAIL_FROM, mailer: smtpMailer(SMTP_URL, MAIL_FROM) };
  }
  return cached.mailer;
}

/** Whether e-mail is configured at all. */
export const mailConfigured = () => mailer() !== null;

/**
 * Sends `mail` when SMTP is configured. Answers whether it went out: undefined when e-mail is not
 * configured, false when sending failed (logged without the message's content), true when the SMTP
 * server took it. Never throws.
 */
export async function sendMail(mail: Mail): Promise<boolean | undefined> {
  const configured = mailer();
  if (!configured) return undefined;
  try {
    await configured.send({ to: mail.to, subject: mail.subject, text: mail.text });
    return true;
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    // The error alone: SMTP errors name the server's answer, never the message's body or the URL's password.
    console.error(
      `[mail] could not send the ${mail.kind} e-mail: ${code ? `${code} ` : ""}${message ?? String(error)}`,
    );
    return false;
  }
}

/** The answer's additive `emailed` field: absent when e-mail is not configured. */
export const emailedField = (sent: boolean | undefined): { emailed?: boolean } =>
  sent === undefined ? {} : { emailed: sent };
