import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { freePort } from '../test/harness';
import { smtpTransport } from './transport';

describe('smtpTransport', () => {
  it('signs in with the credentials in the URL, percent-encoded characters decoded', async () => {
    const port = await freePort();
    const logins: string[] = [];
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username} ${auth.password}`);
        if (auth.username === 'mailer' && auth.password === 'p@ss:word')
          callback(null, { user: 1 });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const mail = {
      from: 'a@example.test',
      to: 'b@example.test',
      subject: 'Hi',
      text: 'x',
      html: 'x',
    };
    try {
      const good = smtpTransport(`smtp://mailer:p%40ss%3Aword@127.0.0.1:${port}`);
      await good.send(mail);
      good.close();
      const bad = smtpTransport(`smtp://mailer:wrong@127.0.0.1:${port}`);
      await expect(bad.send(mail)).rejects.toThrow();
      bad.close();
      expect(logins).toEqual(['mailer p@ss:word', 'mailer wrong']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('SMTP_URL', () => {
  it('accepts smtp:// and smtps:// URLs with credentials and options', () => {
    for (const url of [
      'smtp://localhost:1025',
      'smtps://user:p%40ss@mail.example.com',
      'smtp://mail.example.com:587?tls.rejectUnauthorized=false',
    ]) {
      expect(loadConfig({ SMTP_URL: url }).smtpUrl).toBe(url);
    }
  });

  it('refuses a malformed URL at start-up, without echoing it', () => {
    for (const url of ['http://mail.example.com', 'smtp://', 'smtp//mail', 'smtp://a b']) {
      expect(() => loadConfig({ SMTP_URL: url })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ SMTP_URL: 'smtp://u:secret@' })).toThrow(/SMTP_URL must be/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://u:secret@' })).not.toThrow(/secret/);
  });
});
