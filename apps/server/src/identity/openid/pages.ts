import type { KoaContextWithOIDC } from 'oidc-provider';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The provider's pages are served outside Fastify's hooks, so they carry their own policy:
// no script, no framing, styles only from this page.
const POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function page(ctx: KoaContextWithOIDC, title: string, body: string) {
  ctx.type = 'html';
  ctx.set('content-security-policy', POLICY);
  ctx.set('x-frame-options', 'DENY');
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1f2937}
@media (prefers-color-scheme:dark){body{background:#111827;color:#f3f4f6}}
button{font:inherit;padding:.5rem 1rem;margin:.25rem .5rem .25rem 0;cursor:pointer}</style></head>
<body><main>${body}</main></body></html>`;
}

/**
 * A refused authorization request that cannot go back to the application (an unknown client,
 * a redirect URI not registered): the error is shown here and the browser goes nowhere.
 */
export function errorPage(
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string },
) {
  page(
    ctx,
    'Sign-in error',
    `<h1>Sign-in error</h1><p><code>${escapeHtml(out.error)}</code></p>` +
      `<p>${escapeHtml(out.error_description ?? '')}</p>`,
  );
}

/** Asks before ending the browser session (RP-initiated logout). */
export function logoutPage(ctx: KoaContextWithOIDC, form: string) {
  page(
    ctx,
    'Sign out',
    `<h1>Sign out?</h1>${form}` +
      '<button autofocus type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>' +
      '<button type="submit" form="op.logoutForm">Stay signed in</button>',
  );
}

export function signedOutPage(ctx: KoaContextWithOIDC) {
  page(ctx, 'Signed out', '<h1>Signed out</h1><p>You can close this window.</p>');
}
