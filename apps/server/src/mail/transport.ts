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
 * SMTP through nodemailer, which reads the connection URL itself (SMTP_URL: smtp:// or
 * smtps://, user:pass, query options such as ?tls.rejectUnauthorized=false). Short time-outs
 * unless the URL sets them: a dead server must fail this attempt quickly so the back-off takes
 * over, not hang a worker.
 */
export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
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
