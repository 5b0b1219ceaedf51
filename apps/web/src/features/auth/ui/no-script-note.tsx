const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A note shown only where script does not run. React renders no children of <noscript> on
 * the server, so the note is written as markup; the text is escaped here, as React would.
 */
export function NoScriptNote({ text }: { text: string }) {
  return (
    <noscript
      dangerouslySetInnerHTML={{
        __html: `<div role="status" class="auth-alert auth-alert-info">${escapeHtml(text)}</div>`,
      }}
    />
  );
}
