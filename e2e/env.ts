import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What the global setup publishes to the specs (also in test-results/e2e-env.json). */
export interface E2eEnv {
  port: number;
  /** The super administrator's console: http://localhost:PORT (master realm). */
  adminUrl: string;
  /** The demo tenant's console: http://demo.localhost:PORT. */
  demoUrl: string;
  /** The test SMTP server's mailbox, as JSON: GET {mailUrl}/mails. */
  mailUrl: string;
  /** The OpenAI-compatible mock behind the assistant: POST /__mock/script, GET /__mock/requests. */
  assistantMockUrl: string;
  superAdmin: { email: string; password: string };
  demoAdmin: { email: string; password: string };
}

export const ENV_FILE = fileURLToPath(new URL('../test-results/e2e-env.json', import.meta.url));

let cached: E2eEnv | undefined;

/** Read in the workers: from the environment the setup set, else from its JSON file. */
export function e2eEnv(): E2eEnv {
  if (cached) return cached;
  const json = process.env.E2E_ENV ?? readFileSync(ENV_FILE, 'utf8');
  cached = JSON.parse(json) as E2eEnv;
  return cached;
}
