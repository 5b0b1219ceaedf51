import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import {
  AUTH_BOOT_ELEMENT_ID,
  type AuthBoot,
  type AuthPageState,
  type RenderAuthPage,
} from '@tc/contract/auth-page';

/** The page template the web build writes, and the server-side renderer its SSR build writes. */
const TEMPLATE = 'auth.html';
const RENDERER = join('..', 'dist-ssr', 'auth-render.js');
/** Each page's script chunks beyond the template's own, written by the web build. */
const PAGE_ASSETS = join('..', 'dist-ssr', 'auth-page-assets.json');

export interface AuthPageRenderer {
  /** Answers the page of `state`: rendered markup, or the bare page its script renders. */
  send(reply: FastifyReply, state: AuthPageState, status?: number): FastifyReply;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * JSON inside a <script> element: `<` is written as its escape, so no value can close the
 * element (`</script>`) or open a comment; U+2028/2029 are valid JSON but not always script.
 */
const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');

/**
 * The encodings a browser takes (Accept-Encoding), split rather than matched: the page is
 * made per request, so it is compressed here, where the build's files come precompressed.
 */
function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const taken = new Set<string>();
  for (const item of String(header ?? '')
    .slice(0, 1000)
    .split(',')) {
    const [name, ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    if (!params.some((param) => param.replaceAll(' ', '') === 'q=0')) taken.add(name ?? '');
  }
  if (taken.has('br')) return 'br';
  return taken.has('gzip') ? 'gzip' : undefined;
}

const withoutFormAction = (policy: string) =>
  policy
    .split(';')
    .filter((directive) => !directive.trim().startsWith('form-action'))
    .join(';');

/** Brotli at a quality that takes about a millisecond for a page, still far smaller than gzip. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/**
 * Without a web build, the pages are answered with their state and no markup or script: the
 * forms' routes still do their work (the server's own tests run before any build).
 */
const UNBUILT_TEMPLATE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><!--auth-head--></head>' +
  '<body><div id="root"><!--auth-page--></div></body></html>';

/**
 * Loads the web build's sign-in page template and its server-side renderer once, at start.
 * Without the renderer (a build without its SSR half) the page still works: its script
 * renders it, as the console's pages are rendered.
 */
export async function loadAuthPageRenderer(webDist: string | undefined): Promise<AuthPageRenderer> {
  const templateFile = webDist ? join(webDist, TEMPLATE) : undefined;
  const built = templateFile !== undefined && existsSync(templateFile);
  const template = built ? readFileSync(templateFile, 'utf8') : UNBUILT_TEMPLATE;
  const rendererFile = webDist ? join(webDist, RENDERER) : '';
  const render: RenderAuthPage | undefined =
    built && existsSync(rendererFile)
      ? ((await import(pathToFileURL(rendererFile).href)) as { renderAuthPage: RenderAuthPage })
          .renderAuthPage
      : undefined;

  const assetsFile = webDist ? join(webDist, PAGE_ASSETS) : '';
  const pageAssets = (
    built && existsSync(assetsFile) ? JSON.parse(readFileSync(assetsFile, 'utf8')) : {}
  ) as Partial<Record<AuthPageState['page'], string[]>>;
  // The page's own chunks are asked for with the entry's, not after it has run.
  const preloads = (page: AuthPageState['page']) =>
    (pageAssets[page] ?? [])
      .map((file) => `<link rel="modulepreload" crossorigin href="${escapeHtml(file)}">`)
      .join('');

  return {
    send(reply, state, status = 200) {
      const rendered = render?.(state);
      const boot: AuthBoot = { state, texts: rendered?.texts ?? {} };
      const head =
        `<title>${escapeHtml(rendered?.title ?? 'Tenant Console')}</title>` +
        preloads(state.page) +
        `<script type="application/json" id="${AUTH_BOOT_ELEMENT_ID}">${scriptSafeJson(boot)}</script>`;
      // Replaced by functions: a string replacement would read `$&` or `$'` in a posted value.
      const html = template
        .replace('<html lang="en"', () => `<html lang="${state.language}"`)
        .replace('<!--auth-head-->', () => head)
        .replace('<!--auth-page-->', () => rendered?.html ?? '');
      // The forms post here, and a sign-in that is done sends the browser on to the
      // application's address: browsers hold the redirects after a form post to form-action,
      // so these pages' policy has none (the console's other pages keep theirs).
      const policy = reply.raw.getHeader('content-security-policy');
      if (typeof policy === 'string') {
        reply.raw.setHeader('content-security-policy', withoutFormAction(policy));
      }
      // The page holds what this request posted and who it is for: never stored by a cache.
      reply
        .code(status)
        .header('cache-control', 'no-store')
        .header('vary', 'accept-encoding')
        .type('text/html; charset=utf-8');
      const encoding = acceptedEncoding(reply.request.headers['accept-encoding']);
      if (!encoding) return reply.send(html);
      const body =
        encoding === 'br' ? brotliCompressSync(html, BROTLI) : gzipSync(html, { level: 6 });
      return reply.header('content-encoding', encoding).send(body);
    },
  };
}
