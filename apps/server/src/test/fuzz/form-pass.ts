import { AUTH_BOOT_ELEMENT_ID, AUTH_FORM_TOKEN_FIELD } from '@tc/contract/auth-page';

/** A browser's pass through the sign-in pages' form guard: its form cookie and a token of it. */
export interface FormPass {
  /** `tc_form=…`, as the browser sends it back. */
  cookie: string;
  token: string;
  field: typeof AUTH_FORM_TOKEN_FIELD;
}

/**
 * Opens a sign-in page once, as a browser would, for the form cookie and a token of it: the
 * pages' forms are fuzzed beyond the guard that refuses posts without them (a token fits every
 * page's form, being bound to the cookie alone).
 */
export async function openFormPass(url: string): Promise<FormPass> {
  const response = await fetch(`${url}/login`, { headers: { accept: 'text/html' } });
  const html = await response.text();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('tc_form='));
  const token = formTokenIn(html);
  if (!cookie || !token) throw new Error('the sign-in page gave no form cookie and token');
  return { cookie, token, field: AUTH_FORM_TOKEN_FIELD };
}

/** The form token a sign-in page's state carries, as its forms post it. */
export function formTokenIn(html: string): string | undefined {
  const start = html.indexOf(`id="${AUTH_BOOT_ELEMENT_ID}">`);
  if (start < 0) return undefined;
  const boot = JSON.parse(
    html.slice(html.indexOf('>', start) + 1, html.indexOf('</script>', start)),
  );
  return (boot as { state: { formToken?: string } }).state.formToken;
}
