import { expect, type Page } from '@playwright/test';
import type { E2eEnv } from './env';

/**
 * The bearer token of the next API request a console page makes. The console keeps its access
 * token in memory only, so a spec takes it from the wire to ask the API with it later.
 */
export async function nextBearer(page: Page): Promise<string> {
  const request = await page.waitForRequest(
    (candidate) =>
      candidate.url().includes('/api/v1.0/') && candidate.headers()['authorization'] !== undefined,
  );
  return request.headers()['authorization']!;
}

/**
 * A session ended by someone else: its access token is refused at once (401), and the page's
 * stored refresh token is dead, so on its next load the console sends it to sign in.
 */
export async function expectSessionEnded(env: E2eEnv, page: Page, bearer: string) {
  const answer = await fetch(`${env.adminUrl}/api/v1.0/account`, {
    headers: { authorization: bearer },
  });
  expect(answer.status, "the ended session's access token").toBe(401);
  // The page may already be on its way to the sign-in by itself (its live updates were
  // refused): a reload meeting that navigation is aborted, or finds the page it was sent to
  // replaced by the new one (Chromium: "Not attached to an active page"), and the address
  // below says where the page ended up either way.
  await page.reload().catch((error: Error) => {
    if (!/ERR_ABORTED|Not attached to an active page/.test(error.message)) throw error;
  });
  await expect(page).toHaveURL(/\/login$/);
}
