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
export function pageOf(
  title: string,
  body: string,
  script?: typeof AUTO_SIGN_OUT,
  language = 'en',
) {
  const policy = script ? `${POLICY}; script-src 'sha256-${AUTO_SIGN_OUT_HASH}'` : POLICY;
  return {
    headers: { 'content-security-policy': policy, 'x-frame-options': 'DENY' },
    html: `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
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

const page = (ctx: KoaContextWithOIDC, title: string, body: string) =>
  show(ctx, pageOf(title, body));

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

type PageLanguage = 'en' | 'de' | 'fr' | 'it';
const LANGUAGES: PageLanguage[] = ['en', 'de', 'fr', 'it'];

/** The sign-out page's words; `{app}` is the application's name. */
const SIGN_OUT_TEXTS: Record<
  PageLanguage,
  {
    title: string;
    askApp: string;
    ask: string;
    why: string;
    yes: string;
    no: string;
    refused: string;
    back: string;
  }
> = {
  en: {
    title: 'Sign out',
    askApp: 'Sign out of {app}?',
    ask: 'Sign out?',
    why: 'An application asks to end your session in this browser.',
    yes: 'Sign out',
    no: 'Stay signed in',
    refused: 'This sign-out was sent from another site. Nothing was done: you are still signed in.',
    back: 'Back to sign-out',
  },
  de: {
    title: 'Abmelden',
    askApp: 'Von {app} abmelden?',
    ask: 'Abmelden?',
    why: 'Eine Anwendung möchte Ihre Sitzung in diesem Browser beenden.',
    yes: 'Abmelden',
    no: 'Angemeldet bleiben',
    refused:
      'Diese Abmeldung wurde von einer anderen Website gesendet. Es wurde nichts ausgeführt: Sie sind weiterhin angemeldet.',
    back: 'Zurück zur Abmeldung',
  },
  fr: {
    title: 'Déconnexion',
    askApp: 'Se déconnecter de {app} ?',
    ask: 'Se déconnecter ?',
    why: 'Une application demande de fermer votre session dans ce navigateur.',
    yes: 'Se déconnecter',
    no: 'Rester connecté',
    refused:
      "Cette déconnexion a été envoyée depuis un autre site. Rien n'a été fait : vous êtes toujours connecté.",
    back: 'Retour à la déconnexion',
  },
  it: {
    title: 'Esci',
    askApp: 'Uscire da {app}?',
    ask: 'Uscire?',
    why: "Un'applicazione chiede di chiudere la tua sessione in questo browser.",
    yes: 'Esci',
    no: 'Resta connesso',
    refused:
      'Questa uscita è stata inviata da un altro sito. Non è stato fatto nulla: sei ancora connesso.',
    back: "Torna all'uscita",
  },
};

/**
 * The page's language: the one the application asked for (`ui_locales`), else the one chosen
 * on the sign-in pages (their `tc_lang` cookie), else the browser's, else English.
 */
function pageLanguage(ctx: KoaContextWithOIDC): PageLanguage {
  const asked = String(ctx.oidc.params?.ui_locales ?? '')
    .split(' ')
    .map((tag) => tag.split('-')[0]?.toLowerCase())
    .find((tag): tag is PageLanguage => LANGUAGES.includes(tag as PageLanguage));
  const chosen = ctx.cookies.get('tc_lang') as PageLanguage | undefined;
  const accepted = ctx.acceptsLanguages(LANGUAGES);
  return (
    asked ??
    (chosen && LANGUAGES.includes(chosen) ? chosen : undefined) ??
    (typeof accepted === 'string' ? (accepted as PageLanguage) : 'en')
  );
}

/**
 * Whether the ID token an application sent as `id_token_hint` proves that this browser's own
 * sign-in is to end: its subject is the session's account, the session has signed in to its
 * application, and it was issued since the session's sign-in. Any valid ID token passes the
 * provider's checks — an attacker's own too — so one of another account or session only
 * gets the question (OpenID Connect RP-Initiated Logout 1.0, §2 and §6: the OP asks the user
 * unless it is sure the request is the user's). The ID tokens carry no `sid` (no
 * back-channel logout), so the session is told by the application's authorization and the
 * time of the sign-in.
 */
function hintIsThisSession(ctx: KoaContextWithOIDC): boolean {
  const hint = ctx.oidc.entities.IdTokenHint as { payload?: Record<string, unknown> } | undefined;
  const session = ctx.oidc.session;
  const clientId = ctx.oidc.client?.clientId;
  if (!hint?.payload || !session?.accountId || !clientId) return false;
  const { sub, aud, iat } = hint.payload;
  const audience = Array.isArray(aud) ? aud : [aud];
  return (
    sub === session.accountId &&
    audience.includes(clientId) &&
    session.authorizations?.[clientId] !== undefined &&
    typeof iat === 'number' &&
    typeof session.loginTs === 'number' &&
    iat >= session.loginTs
  );
}

/**
 * Asks before ending the browser session (RP-initiated logout), in the user's language. An
 * application that proves with its ID token (`id_token_hint`) that it speaks for this very
 * sign-in is answered at once, as Keycloak does: the page submits itself; any other request
 * waits for the button. Without script the buttons still work.
 */
export function logoutPage(ctx: KoaContextWithOIDC, form: string) {
  const language = pageLanguage(ctx);
  const words = SIGN_OUT_TEXTS[language];
  const app = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
  const ask = app ? words.askApp.replace('{app}', escapeHtml(app)) : words.ask;
  show(
    ctx,
    pageOf(
      words.title,
      `<h1>${ask}</h1><p>${escapeHtml(words.why)}</p>${form}` +
        `<button autofocus type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(words.yes)}</button>` +
        `<button type="submit" form="op.logoutForm">${escapeHtml(words.no)}</button>`,
      hintIsThisSession(ctx) ? AUTO_SIGN_OUT : undefined,
      language,
    ),
  );
}

/** The first of our languages an Accept-Language header names (split, never matched). */
const acceptedLanguage = (header: string | undefined): PageLanguage =>
  (header ?? '')
    .slice(0, 1000)
    .split(',')
    .map((range) => range.split(';')[0]?.trim().split('-')[0]?.toLowerCase())
    .find((tag): tag is PageLanguage => LANGUAGES.includes(tag as PageLanguage)) ?? 'en';

/**
 * A sign-out confirmation another site made the browser post: refused in the user's
 * language, with the way back to the sign-out page (which asks again, with a fresh form).
 */
export function crossSiteSignOutPageOf(acceptLanguage: string | undefined, signOutPath: string) {
  const language = acceptedLanguage(acceptLanguage);
  const words = SIGN_OUT_TEXTS[language];
  const shown = pageOf(
    words.title,
    `<h1>${escapeHtml(words.title)}</h1><p>${escapeHtml(words.refused)}</p>` +
      `<p><a href="${escapeHtml(signOutPath)}">${escapeHtml(words.back)}</a></p>`,
    undefined,
    language,
  );
  return { ...shown, language };
}

export function signedOutPage(ctx: KoaContextWithOIDC) {
  page(ctx, 'Signed out', '<h1>Signed out</h1><p>You can close this window.</p>');
}
