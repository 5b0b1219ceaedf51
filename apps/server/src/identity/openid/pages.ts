import { createHash } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The provider's pages are served outside Fastify's hooks, so they carry their own policy:
// no script, no framing, styles only from this page. No form-action: browsers apply it to
// the redirect that follows the sign-out form, which goes to the application.
const POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

// Submits the sign-out form at once, answering "yes"; allowed by its hash, nothing else runs.
const AUTO_SIGN_OUT =
  "var f=document.getElementById('op.logoutForm'),i=document.createElement('input');" +
  "i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();";
const AUTO_SIGN_OUT_HASH = createHash('sha256').update(AUTO_SIGN_OUT).digest('base64');

/** The headers and markup of one of our pages, for the provider's context or a Fastify reply. */
export function pageOf(title: string, body: string, script?: typeof AUTO_SIGN_OUT) {
  const policy = script ? `${POLICY}; script-src 'sha256-${AUTO_SIGN_OUT_HASH}'` : POLICY;
  return {
    headers: { 'content-security-policy': policy, 'x-frame-options': 'DENY' },
    html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1f2937}
@media (prefers-color-scheme:dark){body{background:#111827;color:#f3f4f6}}
button{font:inherit;padding:.5rem 1rem;margin:.25rem .5rem .25rem 0;cursor:pointer}</style></head>
<body><main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`,
  };
}

function show(ctx: KoaContextWithOIDC, { headers, html }: ReturnType<typeof pageOf>) {
  ctx.type = 'html';
  ctx.set(headers);
  ctx.body = html;
}

const page = (
  ctx: KoaContextWithOIDC,
  title: string,
  body: string,
  script?: typeof AUTO_SIGN_OUT,
) => show(ctx, pageOf(title, body, script));

/** The page of an authorization error, for the provider and for our own refusals. */
export const errorPageOf = (out: { error: string; error_description?: string }) =>
  pageOf(
    'Sign-in error',
    `<h1>Sign-in error</h1><p><code>${escapeHtml(out.error)}</code></p>` +
      `<p>${escapeHtml(out.error_description ?? '')}</p>`,
  );

/**
 * A refused authorization request that cannot go back to the application (an unknown client,
 * a redirect URI not registered): the error is shown here and the browser goes nowhere.
 */
export function errorPage(
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string },
) {
  show(ctx, errorPageOf(out));
}

/**
 * Asks before ending the browser session (RP-initiated logout). An application that proves
 * the sign-in with its ID token (`id_token_hint`) is answered at once, as Keycloak does: the
 * page submits itself; without script the buttons still work.
 */
export function logoutPage(ctx: KoaContextWithOIDC, form: string) {
  const proven = Boolean(ctx.oidc.params?.id_token_hint) && ctx.oidc.client !== undefined;
  page(
    ctx,
    'Sign out',
    `<h1>Sign out?</h1>${form}` +
      '<button autofocus type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>' +
      '<button type="submit" form="op.logoutForm">Stay signed in</button>',
    proven ? AUTO_SIGN_OUT : undefined,
  );
}

export function signedOutPage(ctx: KoaContextWithOIDC) {
  page(ctx, 'Signed out', '<h1>Signed out</h1><p>You can close this window.</p>');
}
