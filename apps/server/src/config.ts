import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** An SMTP server's address: nodemailer reads host, port and credentials from it. */
function isSmtpUrl(value: string): boolean {
  const url = URL.parse(value);
  return (url?.protocol === 'smtp:' || url?.protocol === 'smtps:') && url.hostname !== '';
}

/** Raised for any bad environment value; main.ts prints its message as one line and exits. */
export class ConfigError extends Error {}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const seconds = z.coerce
  .number({ message: 'must be a whole number of seconds' })
  .int('must be a whole number of seconds')
  .positive('must be a positive number of seconds');
/** One trusted proxy: a keyword, or an IPv4/IPv6 address with an optional prefix length. */
const PROXY_ADDRESS = /^(loopback|linklocal|uniquelocal|[\da-fA-F]*[.:][\da-fA-F.:]*(\/\d{1,3})?)$/;
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

// Names are the environment's (README.md "Configuration"); the brute-force defaults are Keycloak's.
const envSchema = z.object({
  PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be a port number')
    .max(65535, 'must be a port number')
    .default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * Whose X-Forwarded-For to believe for the client's address: the proxies' addresses, CIDR
   * ranges and `loopback`/`linklocal`/`uniquelocal`, comma-separated (never a hop count, which
   * would believe any client claiming enough hops).
   */
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .max(1000)
      .refine(
        (v) => v.split(',').every((part) => PROXY_ADDRESS.test(part.trim())),
        'must be addresses, CIDR ranges or loopback, comma-separated',
      )
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(z.url({ message: 'must be an http(s) URL' }).optional()),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL')
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Connections each process keeps to PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(2, 'must be at least 2')
    .max(1000, 'must be at most 1000')
    .default(10),
  /** Server processes started by `npm start` (node:cluster); PostgreSQL only. */
  WORKERS: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(64, 'must be at most 64')
    .default(1),
  /** How long a stopping process lets requests in flight finish. */
  SHUTDOWN_TIMEOUT: seconds.default(10),
  /** Set by npm for the script it runs (not a setting): `npm start` started this process. */
  npm_lifecycle_event: z.string().optional(),
  /** A name /healthz answers, so a supervisor can tell that the process it started answers. */
  INSTANCE_ID: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores')
    .optional(),
  BOOTSTRAP_ADMIN_EMAIL: z
    .email({ message: 'must be an e-mail address' })
    .default('admin@example.com'),
  BOOTSTRAP_ADMIN_PASSWORD: optionalText.pipe(
    z.string().min(8, 'must be at least 8 characters').optional(),
  ),
  SEED_DEMO: bool.optional(),
  // nodemailer reads the rest of the URL; a malformed one is refused here, at start-up.
  SMTP_URL: optionalText.pipe(
    z
      .url({ message: 'must be an smtp:// or smtps:// URL' })
      .refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default('Tenant Console <no-reply@localhost>'),
  MAIL_POLL_MS: z.coerce.number().int().positive().default(1000),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().positive().default(5000),
  MAIL_RETRY_MAX_MS: z.coerce.number().int().positive().default(600_000),
  /** Delivery attempts before a message is given up as dead. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().positive().default(10),
  /** Sent (and dead) mail is deleted after this many days. */
  MAIL_RETENTION_DAYS: z.coerce.number().int().positive().default(7),
  /** How often the retention job prunes expired and old rows. */
  RETENTION_INTERVAL: seconds.default(3600),
  /** Bearer token `GET /metrics` requires; unset: /metrics answers 404. */
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  ASSISTANT_BASE_URL: optionalText.pipe(z.url({ message: 'must be a URL' }).optional()),
  ASSISTANT_API_KEY: optionalText,
  ASSISTANT_MODEL: z.string().min(1).default('gpt-3.5-turbo'),
  /** Chat requests per user and minute. */
  ASSISTANT_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** Seconds the provider has for one whole answer (all its tool rounds) before it failed. */
  ASSISTANT_TIMEOUT: seconds.default(60),
  /** Let webhooks reach loopback, private and link-local addresses (tests, on-premise). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** Account-flow requests (sign-up, forgot password) per client address and minute. */
  ACCOUNT_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** Token-carrying account requests (reset password, verify e-mail) per address and minute. */
  ACCOUNT_TOKEN_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  /** Password grants per client address and minute, and per realm and minute. */
  TOKEN_RATE_LIMIT: z.coerce.number().int().positive().default(60),
  TOKEN_REALM_RATE_LIMIT: z.coerce.number().int().positive().default(1200),
  /** Wrong client secrets per client address, application and minute; more answer 429. */
  CLIENT_SECRET_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** Rate-limit counters in Redis instead of the database. */
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// URL')
      .optional(),
  ),
  /** Prefix of every key this server writes to Redis, so deployments can share one. */
  REDIS_KEY_PREFIX: z.string().max(100).default('tc:'),
  ACCESS_TOKEN_TTL: seconds.default(300),
  REFRESH_TOKEN_TTL: seconds.default(30 * 24 * 3600),
  REFRESH_TOKEN_IDLE_TTL: seconds.default(7 * 24 * 3600),
  /** How recent a proof (sign-in or re-verification) an account's security change needs. */
  REVERIFY_WINDOW: seconds.default(300),
  BRUTE_FORCE_FAILURE_FACTOR: z.coerce.number().int().positive().default(30),
  BRUTE_FORCE_WAIT_INCREMENT: seconds.default(60),
  BRUTE_FORCE_MAX_WAIT: seconds.default(900),
  BRUTE_FORCE_QUICK_LOGIN_MS: z.coerce.number().int().min(0).default(1000),
  BRUTE_FORCE_QUICK_LOGIN_WAIT: z.coerce.number().int().min(0).default(60),
  BRUTE_FORCE_MAX_DELTA: seconds.default(12 * 3600),
  /** 32 bytes in base64: encrypts second-factor secrets; generated into DATA_DIR when unset. */
  MFA_ENCRYPTION_KEY: optionalText.pipe(
    z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes in base64')
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface BruteForceSettings {
  failureFactor: number;
  waitIncrementSeconds: number;
  maxWaitSeconds: number;
  quickLoginCheckMs: number;
  quickLoginWaitSeconds: number;
  maxDeltaSeconds: number;
}

export interface Config {
  port: number;
  host: string;
  /** Fastify's trustProxy: false, or the trusted proxies' addresses, comma-separated. */
  trustProxy: false | string;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  databasePoolSize: number;
  /** Server processes `npm start` runs (node:cluster). */
  workers: number;
  /** Milliseconds a stopping process lets requests in flight finish. */
  shutdownTimeoutMs: number;
  /** What /healthz names this process: INSTANCE_ID, else a random id of this start. */
  instanceId: string;
  /** Started by an npm script (`npm start`): the server stops when npm is gone. */
  startedByNpm: boolean;
  bootstrapAdminEmail: string;
  bootstrapAdminPassword: string | undefined;
  seedDemo: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Mail worker: poll interval and exponential back-off after a failed delivery. */
  mail: {
    pollMs: number;
    retryBaseMs: number;
    retryMaxMs: number;
    /** Attempts before a message is `dead`. */
    maxAttempts: number;
    /** Days sent and dead mail is kept. */
    retentionDays: number;
  };
  /** Seconds between two runs of the retention job. */
  retentionIntervalSeconds: number;
  /** Required by `GET /metrics`; undefined: metrics are not served. */
  metricsToken: string | undefined;
  googleClientId: string | undefined;
  googleJwksUrl: string;
  assistant: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    /** Chat requests per user and minute. */
    rateLimit: number;
    /** Seconds one whole answer may take; then the chat ends with its error event. */
    timeoutSeconds: number;
  };
  /** Account-flow requests per client address and minute: plain, and token-carrying. */
  accountRateLimit: { perAddress: number; tokensPerAddress: number };
  /** Outbound webhook deliveries: private addresses are refused unless allowed. */
  webhooks: { allowPrivate: boolean };
  /** Password grants per client address and per realm, each per minute. */
  tokenRateLimit: { perAddress: number; perRealm: number; wrongClientSecrets: number };
  redis: { url: string | undefined; keyPrefix: string };
  accessTokenTtl: number;
  refreshTokenTtl: number;
  refreshTokenIdleTtl: number;
  /** Seconds a sign-in or re-verification counts as recent for the account's security changes. */
  reverifyWindowSeconds: number;
  bruteForce: BruteForceSettings;
  /** Encrypts second-factor secrets; undefined: a key kept in the data directory. */
  mfaEncryptionKey: Buffer | undefined;
  logLevel: string;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    // Passwords, keys and URLs with credentials are never echoed into the log.
    const secret = /PASSWORD|_KEY$|SECRET|_TOKEN$|_URL$/.test(name);
    const got = secret ? '' : ` (got "${env[name] ?? ''}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${got}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY ?? false,
    publicUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    workers: e.WORKERS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT * 1000,
    instanceId: e.INSTANCE_ID ?? randomUUID(),
    startedByNpm: e.npm_lifecycle_event !== undefined,
    bootstrapAdminEmail: e.BOOTSTRAP_ADMIN_EMAIL.toLowerCase(),
    bootstrapAdminPassword: e.BOOTSTRAP_ADMIN_PASSWORD,
    // The demo tenant is for the embedded quick start, not for a production PostgreSQL.
    seedDemo: e.SEED_DEMO ?? e.DATABASE_URL === undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mail: {
      pollMs: e.MAIL_POLL_MS,
      retryBaseMs: e.MAIL_RETRY_BASE_MS,
      retryMaxMs: e.MAIL_RETRY_MAX_MS,
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
      retentionDays: e.MAIL_RETENTION_DAYS,
    },
    retentionIntervalSeconds: e.RETENTION_INTERVAL,
    metricsToken: e.METRICS_TOKEN,
    googleClientId: e.GOOGLE_CLIENT_ID,
    googleJwksUrl: e.GOOGLE_JWKS_URL,
    assistant: {
      baseUrl: e.ASSISTANT_BASE_URL,
      apiKey: e.ASSISTANT_API_KEY,
      model: e.ASSISTANT_MODEL,
      rateLimit: e.ASSISTANT_RATE_LIMIT,
      timeoutSeconds: e.ASSISTANT_TIMEOUT,
    },
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE },
    accountRateLimit: {
      perAddress: e.ACCOUNT_RATE_LIMIT,
      tokensPerAddress: e.ACCOUNT_TOKEN_RATE_LIMIT,
    },
    tokenRateLimit: {
      perAddress: e.TOKEN_RATE_LIMIT,
      perRealm: e.TOKEN_REALM_RATE_LIMIT,
      wrongClientSecrets: e.CLIENT_SECRET_RATE_LIMIT,
    },
    redis: { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX },
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    refreshTokenIdleTtl: e.REFRESH_TOKEN_IDLE_TTL,
    reverifyWindowSeconds: e.REVERIFY_WINDOW,
    bruteForce: {
      failureFactor: e.BRUTE_FORCE_FAILURE_FACTOR,
      waitIncrementSeconds: e.BRUTE_FORCE_WAIT_INCREMENT,
      maxWaitSeconds: e.BRUTE_FORCE_MAX_WAIT,
      quickLoginCheckMs: e.BRUTE_FORCE_QUICK_LOGIN_MS,
      quickLoginWaitSeconds: e.BRUTE_FORCE_QUICK_LOGIN_WAIT,
      maxDeltaSeconds: e.BRUTE_FORCE_MAX_DELTA,
    },
    mfaEncryptionKey: e.MFA_ENCRYPTION_KEY
      ? Buffer.from(e.MFA_ENCRYPTION_KEY, 'base64')
      : undefined,
    logLevel: e.LOG_LEVEL,
  };
}
