import nodemailer from 'nodemailer';

export interface MailEnvelope {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Delivers one message or throws; `close` releases connections on shutdown. */
export interface MailTransport {
  send(message: MailEnvelope): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer (SMTP_URL, e.g. smtp://user:pass@host:587). Short time-outs: a
 * dead server must fail this attempt quickly so the back-off takes over, not hang a worker.
 */
export function smtpTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  const transporter = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    auth: url.username
      ? {
          user: decodeURIComponent(url.username),
          pass: decodeURIComponent(url.password),
        }
      : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    send: async (message) => {
      await transporter.sendMail(message);
    },
    close: () => transporter.close(),
  };
}
