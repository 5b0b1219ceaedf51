/**
 * What a sign-in page's scripts weigh: the ones its HTML names (entries and module preloads),
 * and every script Chromium loads until the "Sign in" button shows, lazy chunks included.
 * Sizes are gzip level 9 of the decoded bodies, so a page's figure does not depend on what
 * its server happens to send on the wire.
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { entryScriptSources } from './html-tags';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

export interface ScriptSize {
  url: string;
  bytes: number;
  gzip: number;
  /** Content-Encoding the server sent. */
  wire?: string | undefined;
}

export const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const gzipSize = (body: Buffer) => gzipSync(body, { level: 9 }).length;
export const totalGzip = (scripts: ScriptSize[]) => scripts.reduce((sum, s) => sum + s.gzip, 0);

/**
 * GET over loopback, uncompressed. node:http rather than fetch: Node does not resolve
 * `demo.localhost` as browsers do, so the connection goes to `localhost` and the name travels
 * in the Host header, where the server reads the tenant from.
 */
function get(url: URL, accept: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const headers = { host: url.host, accept, 'accept-encoding': 'identity' };
    const hostname = url.hostname.endsWith('.localhost') ? 'localhost' : url.hostname;
    const req = request(
      { hostname, port: url.port, path: url.pathname + url.search, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode === 200) resolve(Buffer.concat(chunks));
          else reject(new Error(`${url.href}: ${response.statusCode}`));
        });
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The page's first HTML response, as a browser asks for it, before any script runs. */
export async function firstHtml(url: string): Promise<string> {
  return (await get(new URL(url), 'text/html')).toString('utf8');
}

/** The scripts the HTML names, fetched from the same server. */
export async function entryScripts(url: string, html: string): Promise<ScriptSize[]> {
  return Promise.all(
    entryScriptSources(html).map(async (src) => {
      const address = new URL(src, url);
      const body = await get(address, '*/*');
      return { url: address.pathname, bytes: body.length, gzip: gzipSize(body) };
    }),
  );
}

export interface LoadedPage {
  scripts: ScriptSize[];
  /** Unthrottled, from the page's own performance timeline (ms after navigation start). */
  firstContentfulPaintMs?: number | undefined;
  /** When the last script response ended, on the same timeline. */
  scriptsLoadedMs?: number | undefined;
}

/** Every script the page loads in Chromium until its "Sign in" button shows. */
export async function loadedScripts(url: string): Promise<LoadedPage> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  try {
    const page = await browser.newPage();
    const scripts: ScriptSize[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        response.body().then((body) => {
          scripts.push({
            url: new URL(response.url()).pathname,
            bytes: body.length,
            gzip: gzipSize(body),
            wire: response.headers()['content-encoding'],
          });
        }),
      );
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page
      .getByRole('button', { name: /^sign in$/i })
      .waitFor({ timeout: 15_000 })
      .catch(() => console.warn(`warning: the "Sign in" button did not show on ${url}`));
    await Promise.all(pending);
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const ends = performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => (entry as PerformanceResourceTiming).responseEnd);
      return { paint: paint?.startTime, scripts: ends.length ? Math.max(...ends) : undefined };
    });
    const round = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms));
    return {
      scripts,
      firstContentfulPaintMs: round(timing.paint),
      scriptsLoadedMs: round(timing.scripts),
    };
  } finally {
    await browser.close();
  }
}
