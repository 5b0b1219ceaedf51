import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** What every answer carries anyway, whoever sets the security headers. */
const NOT_SECURITY_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection']);

/**
 * The headers helmet sets for these options. @fastify/helmet builds helmet's middleware again
 * on every request (parsing the CSP directives each time), while the headers it writes never
 * change: they are asked of it once, on a server of its own, and written as they are.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    probe.get('/', async () => '');
    const answer = await probe.inject('/');
    return Object.fromEntries(
      Object.entries(answer.headers)
        .filter(([name]) => !NOT_SECURITY_HEADERS.has(name))
        .map(([name, value]) => [name, String(value)]),
    );
  } finally {
    await probe.close();
  }
}

/**
 * Security headers on every answer. The CSP is the one the console runs under: scripts only
 * from our origin; inline styles because MUI (Emotion) injects them; Google's script and
 * frame only when Google sign-in is configured. A route may set its own (the hosted sign-in
 * pages' CSP), after these.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const google = config.googleClientId ? ['https://accounts.google.com/gsi/'] : [];
  const headers = await helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...google],
        styleSrc: ["'self'", "'unsafe-inline'", ...google],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...google],
        frameSrc: google.length ? google : ["'none'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    // Reset and invitation links carry tokens in the URL: never leak them in a Referer.
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  if (!headers['content-security-policy']) throw new Error('helmet set no security headers');
  const entries = Object.entries(headers);
  // On the raw answer, as helmet does: answers written past Fastify (the OpenID provider's,
  // the event stream) carry them too.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of entries) reply.raw.setHeader(name, value);
    done();
  });
}
