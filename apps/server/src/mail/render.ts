import type { MailLocale } from './locale';
import { de } from './templates/de';
import { en } from './templates/en';
import { fr } from './templates/fr';
import { it } from './templates/it';
import type { MailKind, MailParams, MailStrings } from './templates/types';

const STRINGS: Record<MailLocale, MailStrings> = { en, de, fr, it };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Names, tenant names and links come from users: never markup (OWASP XSS prevention, rule 1). */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** One mail in one language, as a plain-text part and an HTML part with the same words. */
export function renderMail(kind: MailKind, locale: MailLocale, params: MailParams): RenderedMail {
  const strings = STRINGS[locale];
  const body = strings.kinds[kind](params);
  const greeting = strings.greeting(params.name);
  const footer = strings.footer(params.tenant);
  const link = body.action && params.link ? { label: body.action, href: params.link } : undefined;

  const text = [
    greeting,
    ...body.paragraphs,
    ...(link ? [`${link.label}: ${link.href}`] : []),
    '--',
    footer,
  ].join('\n\n');

  const button = link
    ? `<p><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:10px 18px;` +
      `background:#1976d2;color:#ffffff;text-decoration:none;border-radius:4px">` +
      `${escapeHtml(link.label)}</a></p>` +
      `<p style="font-size:12px;color:#555">${escapeHtml(link.href)}</p>`
    : '';
  const html =
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
    `<title>${escapeHtml(body.subject)}</title></head>` +
    `<body style="font-family:Arial,sans-serif;line-height:1.5;color:#222">` +
    `<p>${escapeHtml(greeting)}</p>` +
    body.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
    button +
    `<hr><p style="font-size:12px;color:#555">${escapeHtml(footer)}</p></body></html>`;

  return { subject: body.subject, text, html };
}
