import type { ProblemCode } from './problem-codes';

/**
 * The checks of a client's identifier and addresses. URLs are read with the WHATWG parser
 * (`URL.parse`), the same one browsers and Node use, never with a regular expression; the
 * client ID is tested one character at a time. Each function answers the problem code of a
 * refused value, or undefined.
 */

/** RFC 3986's unreserved characters: a client ID needs no escaping in a URL or a form. */
function isUnreserved(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x7e || // ~
    code === 0x2d // -
  );
}

export function clientIdProblem(value: string): ProblemCode | undefined {
  for (let i = 0; i < value.length; i += 1) {
    if (!isUnreserved(value.charCodeAt(i))) return 'client.id_pattern';
  }
  return undefined;
}

/** Plain http is only for the developer's own machine (RFC 8252 §7.3, loopback). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const isSecureOrLoopback = (url: URL) =>
  url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));

/**
 * A native app's private-use scheme is a reverse domain name (RFC 8252 §7.1), such as
 * `com.example.app:/callback`; the dot keeps out `javascript:`, `data:`, `file:` and friends.
 */
const isPrivateUseScheme = (url: URL) => url.protocol.includes('.');

/**
 * A redirect URI (sign-in or sign-out) is compared as a whole by the identity provider, so it
 * must be exact: absolute, without a fragment (RFC 6749 §3.1.2), without a `*` that could be
 * mistaken for a wildcard, without credentials, and on https, loopback http or an app's own
 * scheme.
 */
export function redirectUriProblem(value: string): ProblemCode | undefined {
  if (value.includes('*')) return 'client.uri_wildcard';
  if (value.includes('#')) return 'client.redirect_uri_fragment';
  const url = URL.parse(value);
  if (!url || value.includes(' ') || url.username !== '' || url.password !== '') {
    return 'client.redirect_uri_invalid';
  }
  if (isSecureOrLoopback(url) || isPrivateUseScheme(url)) return undefined;
  return 'client.redirect_uri_scheme';
}

/**
 * A web origin (where browser calls to the token endpoint may come from, CORS): scheme, host
 * and port only, as the `Origin` header carries it, on https or loopback http.
 */
export function originProblem(value: string): ProblemCode | undefined {
  if (value.includes('*')) return 'client.uri_wildcard';
  const url = URL.parse(value);
  if (
    !url ||
    url.origin === 'null' ||
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    /* A path of only "/", an empty query or fragment are still a path, query, fragment. */
    value.endsWith('/') ||
    value.includes('?') ||
    value.includes('#') ||
    value.includes(' ')
  ) {
    return 'client.origin_invalid';
  }
  return isSecureOrLoopback(url) ? undefined : 'client.origin_scheme';
}
